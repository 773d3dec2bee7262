import { atom } from 'nanostores';
import type { AuditEntry, AuditExportQuery } from '@boatshop/contract';
import { API_BASE } from '@boatshop/contract/constants';
import { client } from '../api';
import { messageOf } from './staff';

export interface AuditState {
  status: 'idle' | 'loading' | 'ready' | 'failed';
  entries: AuditEntry[];
  nextBefore: number | null;
  error: string | null;
}

export const $audit = atom<AuditState>({ status: 'idle', entries: [], nextBefore: null, error: null });

const present = (filter: AuditExportQuery): AuditExportQuery =>
  Object.fromEntries(Object.entries(filter).filter(([, value]) => typeof value === 'string' && value.trim() !== '')) as AuditExportQuery;

/** The first page for a filter, or the next page (`more`) after what is shown. */
export async function loadAudit(filter: AuditExportQuery, more = false): Promise<void> {
  const current = $audit.get();
  $audit.set({ ...current, status: 'loading', error: null });
  try {
    const page = await client.admin.audit.list({
      ...present(filter),
      ...(more && current.nextBefore ? { before: current.nextBefore } : {}),
    });
    $audit.set({
      status: 'ready',
      entries: more ? [...current.entries, ...page.entries] : page.entries,
      nextBefore: page.nextBefore,
      error: null,
    });
  } catch (error) {
    $audit.set({ ...current, status: 'failed', error: messageOf(error, 'The audit log could not be loaded.') });
  }
}

/** The CSV download's address for a filter (a plain GET the browser saves as a file). */
export function auditExportUrl(filter: AuditExportQuery): string {
  const query = new URLSearchParams(present(filter) as Record<string, string>).toString();
  return `${API_BASE}/admin/audit/export${query ? `?${query}` : ''}`;
}
