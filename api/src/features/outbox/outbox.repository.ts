import { sql, type Transaction } from 'kysely';
import type { Database, Db } from '../../db/database.js';

export interface OutboxMessage {
  id: string;
  kind: string;
  payload: Record<string, unknown>;
  attempts: number;
}

/**
 * How long one delivery attempt owns a message before another may take it over (a crashed
 * worker). Shorter than the delivery job's expiry (outbox-delivery.ts), so the job's retry after
 * its process died finds the claim run out; longer than the mailer's timeouts, so a slow attempt
 * still alive is never doubled.
 */
export const CLAIM_SECONDS = 60;

export async function writeOutboxMessage(
  trx: Transaction<Database>,
  message: { kind: string; dedupeKey: string; payload: Record<string, unknown> },
): Promise<boolean> {
  const written = await trx
    .insertInto('outbox')
    .values({ kind: message.kind, dedupe_key: message.dedupeKey, payload: JSON.stringify(message.payload) })
    .onConflict((oc) => oc.column('dedupe_key').doNothing())
    .returning('id')
    .executeTakeFirst();
  return written !== undefined;
}

/** Messages not yet handed to the job queue: written by a transaction whose process stopped before, or new. */
export async function listUnqueuedMessages(db: Db, limit = 100): Promise<{ id: string; kind: string }[]> {
  return db
    .selectFrom('outbox')
    .select(['id', 'kind'])
    .where('sent_at', 'is', null)
    .where('enqueued_at', 'is', null)
    .orderBy('created_at')
    .limit(limit)
    .execute();
}

export async function markEnqueued(db: Db, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('outbox')
    .set({ enqueued_at: sql<Date>`now()` })
    .where('id', 'in', ids)
    .execute();
}

/**
 * Takes one unsent message for a delivery attempt: a conditional UPDATE, so two attempts at once
 * (a job run twice) cannot both send it. undefined when it was sent or another attempt owns it.
 */
export async function claimMessage(db: Db, id: string): Promise<OutboxMessage | undefined> {
  const row = await db
    .updateTable('outbox')
    .set({
      attempts: sql<number>`attempts + 1`,
      locked_until: sql<Date>`now() + make_interval(secs => ${CLAIM_SECONDS})`,
    })
    .where('id', '=', id)
    .where('sent_at', 'is', null)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', sql<Date>`now()`)]))
    .returning(['id', 'kind', 'payload', 'attempts'])
    .executeTakeFirst();
  return row;
}

/** Whether a message is still to be sent (false: sent, or no longer there). */
export async function isUnsent(db: Db, id: string): Promise<boolean> {
  const row = await db.selectFrom('outbox').select('sent_at').where('id', '=', id).executeTakeFirst();
  return row !== undefined && row.sent_at === null;
}

export async function markSent(db: Db, id: string): Promise<void> {
  await db
    .updateTable('outbox')
    .set({ sent_at: sql<Date>`now()`, locked_until: null, last_error: null })
    .where('id', '=', id)
    .execute();
}

export async function releaseAfterFailure(db: Db, id: string, error: string): Promise<void> {
  await db
    .updateTable('outbox')
    .set({ locked_until: null, last_error: error.slice(0, 1000) })
    .where('id', '=', id)
    .execute();
}
