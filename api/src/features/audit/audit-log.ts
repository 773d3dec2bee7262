import { staffRoleOf } from '@boatshop/contract';
import type { FastifyRequest } from 'fastify';
import { sql, type Kysely, type Transaction } from 'kysely';
import { createHash } from 'node:crypto';
import type { Database } from '../../db/database.js';
import type { AuditRow } from './audit.table.js';

/** The hash the chain's first row points back to. */
export const GENESIS_HASH = '0'.repeat(64);

declare module 'fastify' {
  interface FastifyRequest {
    /** set once the route recorded its action itself (recordAudit), so the automatic hook does not record it again */
    auditRecorded: boolean;
  }
}

/** What one audit row says. `before`/`after`: the changed values, when the route knows them. */
export interface AuditEntry {
  /** the request whose signed-in staff member acts (actor, role, address); null for the system (jobs, scripts) */
  request: FastifyRequest | null;
  /** e.g. `staff.role_changed`, `order.refund` */
  action: string;
  target?: { type: string; id: string } | null;
  status?: number | null;
  before?: unknown;
  after?: unknown;
  details?: unknown;
}

/** Keys whose values never enter the log (a step-up password in a body, a token). */
const SECRET_KEY = /password|token|secret/i;

/** Plain JSON (dates as ISO strings), secrets replaced, so what is hashed is exactly what jsonb gives back. */
export function auditJson(value: unknown): unknown {
  if (value === undefined) return null;
  return JSON.parse(JSON.stringify(value, (key, inner: unknown) => (key && SECRET_KEY.test(key) ? '[redacted]' : inner)) ?? 'null');
}

/** JSON with object keys sorted at every level: jsonb does not keep the order they were written in. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, inner]) => `${JSON.stringify(key)}:${canonical(inner)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

type HashedFields = Omit<AuditRow, 'hash'>;

/** A row's hash: SHA-256 over its every column but the hash itself, the previous row's hash among them. */
export function auditHash(row: HashedFields): string {
  return createHash('sha256')
    .update(
      canonical({
        seq: Number(row.seq),
        at: new Date(row.at).toISOString(),
        actor_id: row.actor_id,
        actor_email: row.actor_email,
        actor_role: row.actor_role,
        ip: row.ip,
        action: row.action,
        target_type: row.target_type,
        target_id: row.target_id,
        status: row.status,
        before: row.before ?? null,
        after: row.after ?? null,
        details: row.details ?? null,
        prev_hash: row.prev_hash,
      }),
    )
    .digest('hex');
}

/**
 * Appends one row to the audit log inside the caller's transaction (the change and its record
 * commit together or not at all). A transaction-scoped advisory lock makes writers take turns
 * from reading the chain's head to their commit, so two rows can never claim the same place.
 */
export async function recordAudit(trx: Transaction<Database>, entry: AuditEntry): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext('boatshop:audit-log'))`.execute(trx);
  const head = await trx.selectFrom('audit_log').select(['seq', 'hash']).orderBy('seq', 'desc').limit(1).executeTakeFirst();
  const user = entry.request?.user ?? null;
  const row: HashedFields = {
    seq: (head ? Number(head.seq) : 0) + 1,
    at: new Date(),
    actor_id: user?.id ?? null,
    actor_email: user?.email ?? null,
    actor_role: user ? (staffRoleOf(user.roles) ?? 'user') : 'system',
    ip: entry.request?.ip ?? null,
    action: entry.action,
    target_type: entry.target?.type ?? null,
    target_id: entry.target?.id ?? null,
    status: entry.status ?? null,
    before: entry.before === undefined ? null : auditJson(entry.before),
    after: entry.after === undefined ? null : auditJson(entry.after),
    details: entry.details === undefined ? null : auditJson(entry.details),
    prev_hash: head?.hash ?? GENESIS_HASH,
  };
  const json = (value: unknown) => (value === null ? null : JSON.stringify(value));
  await trx
    .insertInto('audit_log')
    .values({ ...row, before: json(row.before), after: json(row.after), details: json(row.details), hash: auditHash(row) })
    .execute();
  if (entry.request) entry.request.auditRecorded = true;
}

export type ChainCheck = { ok: true; checked: number } | { ok: false; checked: number; seq: number; problem: string };

/**
 * Walks the whole chain in order: each row's hash must match its content, point at the previous
 * row's hash, and follow it without a gap. Names the first row where that fails.
 */
export async function verifyAuditChain(db: Kysely<Database>, batchSize = 1000): Promise<ChainCheck> {
  let previousHash = GENESIS_HASH;
  let expectedSeq = 1;
  let checked = 0;
  for (;;) {
    const rows = await db.selectFrom('audit_log').selectAll().where('seq', '>=', expectedSeq).orderBy('seq').limit(batchSize).execute();
    if (rows.length === 0) return { ok: true, checked };
    for (const row of rows) {
      const seq = Number(row.seq);
      if (seq !== expectedSeq) return { ok: false, checked, seq: expectedSeq, problem: `row ${expectedSeq} is missing (next is ${seq})` };
      if (row.prev_hash !== previousHash) return { ok: false, checked, seq, problem: `row ${seq} does not point at row ${seq - 1}'s hash` };
      if (auditHash(row) !== row.hash) return { ok: false, checked, seq, problem: `row ${seq} was changed after it was written` };
      previousHash = row.hash;
      expectedSeq += 1;
      checked += 1;
    }
  }
}

export const AUDIT_VERIFY_QUEUE = 'audit.verify';

/** The daily check: logs the chain's state, an error naming the first broken row when there is one. */
export async function runAuditVerification(
  db: Kysely<Database>,
  log: { info: (o: object, m: string) => void; error: (o: object, m: string) => void },
) {
  const result = await verifyAuditChain(db);
  if (result.ok) log.info({ checked: result.checked }, 'audit log chain verified');
  else log.error({ seq: result.seq, problem: result.problem }, `audit log chain broken at row ${result.seq}: ${result.problem}`);
  return result;
}
