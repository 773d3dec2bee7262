import type { AuditEntry, AuditExportQuery, AuditQuery } from '@boatshop/contract';
import { AUDIT_PAGE_SIZE } from '@boatshop/contract';
import type { SelectQueryBuilder } from 'kysely';
import type { Database, Db } from '../../db/database.js';
import type { AuditRow } from './audit.table.js';

export function rowToAuditEntry(row: AuditRow): AuditEntry {
  return {
    seq: Number(row.seq),
    at: row.at.toISOString(),
    actorId: row.actor_id,
    actorEmail: row.actor_email,
    actorRole: row.actor_role,
    ip: row.ip,
    action: row.action,
    targetType: row.target_type,
    targetId: row.target_id,
    status: row.status,
    before: row.before ?? null,
    after: row.after ?? null,
    details: row.details ?? null,
  };
}

const likeText = (text: string) => `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;

function filtered<O>(query: SelectQueryBuilder<Database, 'audit_log', O>, filter: AuditExportQuery) {
  let q = query;
  if (filter.actor?.trim()) q = q.where('actor_email', 'ilike', likeText(filter.actor.trim()));
  if (filter.action?.trim()) q = q.where('action', 'ilike', likeText(filter.action.trim()));
  if (filter.from) q = q.where('at', '>=', new Date(`${filter.from}T00:00:00Z`));
  if (filter.to) q = q.where('at', '<', new Date(new Date(`${filter.to}T00:00:00Z`).getTime() + 24 * 3600 * 1000));
  return q;
}

/** Newest first, a keyset page at a time (by seq, the chain's order). */
export async function listAudit(db: Db, query: AuditQuery): Promise<{ entries: AuditEntry[]; nextBefore: number | null }> {
  const limit = query.limit ?? AUDIT_PAGE_SIZE;
  let q = filtered(db.selectFrom('audit_log').selectAll(), query);
  if (query.before) q = q.where('seq', '<', query.before);
  const rows = await q
    .orderBy('seq', 'desc')
    .limit(limit + 1)
    .execute();
  const page = rows.slice(0, limit);
  return { entries: page.map(rowToAuditEntry), nextBefore: rows.length > limit ? Number(page[page.length - 1]!.seq) : null };
}

const CSV_COLUMNS = [
  'seq',
  'at',
  'actorEmail',
  'actorRole',
  'ip',
  'action',
  'targetType',
  'targetId',
  'status',
  'before',
  'after',
  'details',
] as const;

/** A field as RFC 4180 wants it, and never a formula a spreadsheet would run (=, +, -, @ first). */
function csvField(value: unknown): string {
  let text = value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Every matching row, oldest first, as CSV with a header line. */
export async function auditCsv(db: Db, query: AuditExportQuery): Promise<string> {
  const rows = await filtered(db.selectFrom('audit_log').selectAll(), query).orderBy('seq').execute();
  const lines = [CSV_COLUMNS.join(',')];
  for (const row of rows) {
    const entry = rowToAuditEntry(row);
    lines.push(CSV_COLUMNS.map((column) => csvField(entry[column])).join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}
