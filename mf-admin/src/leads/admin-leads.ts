import { atom } from 'nanostores';
import { ROUTE_PATHS, isApiError, type ResponseOf } from '@boatshop/contract/client';
import type { LeadState } from '@boatshop/contract/constants';
import { client } from '../api';

export type AdminLeadPage = ResponseOf<typeof ROUTE_PATHS.admin.leads.list>;
export type AdminLead = ResponseOf<typeof ROUTE_PATHS.admin.leads.get>;
export type FunnelMonth = ResponseOf<typeof ROUTE_PATHS.admin.leads.funnel>['data'][number];

/** A shopper's latest message older than this without an answer stands out in the inbox. */
export const UNANSWERED_AFTER_MS = 24 * 60 * 60 * 1000;

export function waitsTooLong(awaitingReplySince: string | null, now = Date.now()): boolean {
  return awaitingReplySince !== null && now - new Date(awaitingReplySince).getTime() > UNANSWERED_AFTER_MS;
}

const messageOf = (error: unknown, fallback: string) =>
  isApiError(error) && error.status > 0 && error.status < 500 ? (error.details[0] ?? error.message) : fallback;

export interface LeadFilter {
  state: LeadState | '';
  q: string;
  unanswered: boolean;
  page: number;
}

export const $leads = atom<{ status: 'idle' | 'loading' | 'ready' | 'failed'; page: AdminLeadPage | null; error: string }>({
  status: 'idle',
  page: null,
  error: '',
});

export async function loadLeads(filter: LeadFilter): Promise<void> {
  $leads.set({ ...$leads.get(), status: 'loading' });
  try {
    const page = await client.request(ROUTE_PATHS.admin.leads.list, {
      query: {
        ...(filter.state ? { state: filter.state } : {}),
        ...(filter.q ? { q: filter.q } : {}),
        ...(filter.unanswered ? { unanswered: true } : {}),
        page: filter.page,
      },
    });
    $leads.set({ status: 'ready', page, error: '' });
  } catch (error) {
    $leads.set({ status: 'failed', page: null, error: messageOf(error, 'The leads could not be loaded.') });
  }
}

export const $funnel = atom<FunnelMonth[]>([]);

export async function loadFunnel(): Promise<void> {
  try {
    $funnel.set((await client.request(ROUTE_PATHS.admin.leads.funnel, { query: { months: 6 } })).data);
  } catch {
    $funnel.set([]);
  }
}

export const $lead = atom<{ status: 'idle' | 'loading' | 'ready' | 'missing'; lead: AdminLead | null; error: string }>({
  status: 'idle',
  lead: null,
  error: '',
});

export async function openLead(id: string): Promise<void> {
  $lead.set({ status: 'loading', lead: null, error: '' });
  try {
    $lead.set({ status: 'ready', lead: await client.request(ROUTE_PATHS.admin.leads.get, { params: { id } }), error: '' });
  } catch {
    $lead.set({ status: 'missing', lead: null, error: '' });
  }
}

export function leaveLead(): void {
  $lead.set({ status: 'idle', lead: null, error: '' });
}

/** One action on the open lead; true when it was done (the page then shows the lead as it is now). */
async function act(run: () => Promise<AdminLead>, fallback: string): Promise<boolean> {
  try {
    $lead.set({ status: 'ready', lead: await run(), error: '' });
    return true;
  } catch (error) {
    $lead.set({ ...$lead.get(), error: messageOf(error, fallback) });
    return false;
  }
}

export const replyToLead = (id: string, body: string) =>
  act(() => client.request(ROUTE_PATHS.admin.leads.reply, { params: { id }, body: { body } }), 'The answer could not be sent.');

export const addLeadNote = (id: string, body: string) =>
  act(() => client.request(ROUTE_PATHS.admin.leads.note, { params: { id }, body: { body } }), 'The note could not be saved.');

export const markLeadLost = (id: string, reason: string) =>
  act(() => client.request(ROUTE_PATHS.admin.leads.markLost, { params: { id }, body: { reason } }), 'The lead could not be marked lost.');
