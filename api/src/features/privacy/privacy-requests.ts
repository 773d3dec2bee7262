import type { PrivacyStatus } from '@boatshop/contract';
import { CONSENT_TOPICS, CONSENT_WORDING, type ConsentTopic } from '@boatshop/contract';
import type { FastifyBaseLogger } from 'fastify';
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database, Db } from '../../db/database.js';
import { hashEmailToken } from '../auth/email-tokens.js';
import { mail, queueMail } from '../leads/lead-mails.js';
import { collectPersonalData, eraseAccount, erasureBlockers } from './personal-data.js';

/** How long an export's link downloads the archive. */
export const EXPORT_TTL_MS = 7 * 24 * 60 * 60 * 1000;
/** How long an erasure link works: long enough for an inbox checked once a day. */
export const ERASURE_LINK_TTL_MS = 24 * 60 * 60 * 1000;

/** The job queue that builds the archives of requested exports. */
export const PRIVACY_EXPORT_QUEUE = 'privacy.exports';

const newToken = () => randomBytes(32).toString('base64url');

export async function privacyStatus(db: Db, userId: string): Promise<PrivacyStatus> {
  const consentRows = await db
    .selectFrom('consents')
    .select(['topic', 'granted', 'recorded_at'])
    .where('user_id', '=', userId)
    .orderBy('recorded_at', 'desc')
    .execute();
  const consents = CONSENT_TOPICS.map((topic) => {
    const latest = consentRows.find((row) => row.topic === topic);
    return { topic, granted: latest?.granted ?? false, recordedAt: latest ? latest.recorded_at.toISOString() : null };
  });
  const latestExport = await db
    .selectFrom('privacy_requests')
    .select(['id', 'state', 'created_at', 'expires_at'])
    .where('user_id', '=', userId)
    .where('kind', '=', 'export')
    .where('state', 'in', ['preparing', 'ready'])
    .where('expires_at', '>', new Date())
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
  const erasure = await db
    .selectFrom('privacy_requests')
    .select('id')
    .where('user_id', '=', userId)
    .where('kind', '=', 'erasure')
    .where('state', '=', 'awaiting_confirmation')
    .where('expires_at', '>', new Date())
    .executeTakeFirst();
  return {
    consents,
    export: latestExport
      ? {
          id: latestExport.id,
          state: latestExport.state as 'preparing' | 'ready',
          createdAt: latestExport.created_at.toISOString(),
          expiresAt: latestExport.expires_at.toISOString(),
        }
      : null,
    erasureBlockers: await erasureBlockers(db, userId),
    erasureRequested: Boolean(erasure),
  };
}

/** Records the answer with the wording the shopper saw. */
export async function recordConsent(db: Db, userId: string, topic: ConsentTopic, granted: boolean): Promise<void> {
  await db.insertInto('consents').values({ user_id: userId, topic, granted, wording: CONSENT_WORDING[topic] }).execute();
}

/**
 * A new export, or the one already being prepared: clicking twice builds one archive. The job
 * (`buildRequestedExports`) builds it and e-mails the link.
 */
export async function requestExport(db: Kysely<Database>, userId: string): Promise<{ id: string; created: boolean }> {
  return db.transaction().execute(async (trx) => {
    await trx.selectFrom('users').select('id').where('id', '=', userId).forNoKeyUpdate().executeTakeFirstOrThrow();
    const preparing = await trx
      .selectFrom('privacy_requests')
      .select('id')
      .where('user_id', '=', userId)
      .where('kind', '=', 'export')
      .where('state', '=', 'preparing')
      .executeTakeFirst();
    if (preparing) return { id: preparing.id, created: false };
    const row = await trx
      .insertInto('privacy_requests')
      .values({
        user_id: userId,
        kind: 'export',
        state: 'preparing',
        // Replaced by the link's own token when the archive is ready.
        token_hash: hashEmailToken(newToken()),
        expires_at: new Date(Date.now() + EXPORT_TTL_MS),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { id: row.id, created: true };
  });
}

/**
 * Builds every requested archive: each is claimed by a conditional update (two workers never
 * build one twice), stored, and its link e-mailed in the same transaction.
 */
export async function buildRequestedExports(db: Kysely<Database>, publicUrl: string, log: FastifyBaseLogger): Promise<number> {
  const waiting = await db
    .selectFrom('privacy_requests')
    .select(['id', 'user_id'])
    .where('kind', '=', 'export')
    .where('state', '=', 'preparing')
    .execute();
  let built = 0;
  for (const request of waiting) {
    const done = await db.transaction().execute(async (trx) => {
      const claimed = await trx
        .selectFrom('privacy_requests')
        .select('id')
        .where('id', '=', request.id)
        .where('state', '=', 'preparing')
        .forUpdate()
        .skipLocked()
        .executeTakeFirst();
      if (!claimed) return false;
      const archive = await collectPersonalData(trx, request.user_id);
      const token = newToken();
      const expiresAt = new Date(Date.now() + EXPORT_TTL_MS);
      await trx
        .updateTable('privacy_requests')
        .set({
          state: 'ready',
          archive: JSON.stringify(archive),
          token_hash: hashEmailToken(token),
          expires_at: expiresAt,
          completed_at: new Date(),
        })
        .where('id', '=', request.id)
        .execute();
      const profile = archive.profile as { email: string; displayName: string };
      const link = `${publicUrl}/api/account/privacy/export/${request.id}?token=${encodeURIComponent(token)}`;
      await queueMail(
        trx,
        mail(
          profile.email,
          'Your Boat shop data is ready to download',
          [
            `Hello ${profile.displayName},`,
            'The archive of everything Boat shop holds about you is ready: your profile, orders, payments, invoices, questions, messages, consents and sign-in history, as JSON.',
            `The link works for seven days, while you are signed in to your account.`,
          ],
          { href: link, label: 'Download my data' },
        ),
      );
      return true;
    });
    if (done) built += 1;
  }
  if (built) log.info({ built }, 'personal data exports built');
  return built;
}

/** The archive behind a link: the owner's, ready, unexpired, and the link's own token. */
export async function exportArchive(db: Db, userId: string, id: string, token: string): Promise<Record<string, unknown> | undefined> {
  const row = await db
    .selectFrom('privacy_requests')
    .select('archive')
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where('kind', '=', 'export')
    .where('state', '=', 'ready')
    .where('token_hash', '=', hashEmailToken(token))
    .where('expires_at', '>', new Date())
    .executeTakeFirst();
  return row?.archive ?? undefined;
}

/** A fresh erasure link by e-mail; an earlier unused one stops working. */
export async function requestErasure(db: Kysely<Database>, user: { id: string; email: string; displayName: string }, publicUrl: string) {
  const token = newToken();
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('privacy_requests')
      .set({ state: 'withdrawn', completed_at: new Date() })
      .where('user_id', '=', user.id)
      .where('kind', '=', 'erasure')
      .where('state', '=', 'awaiting_confirmation')
      .execute();
    await trx
      .insertInto('privacy_requests')
      .values({
        user_id: user.id,
        kind: 'erasure',
        state: 'awaiting_confirmation',
        token_hash: hashEmailToken(token),
        expires_at: new Date(Date.now() + ERASURE_LINK_TTL_MS),
      })
      .execute();
    await queueMail(
      trx,
      mail(
        user.email,
        'Confirm that your Boat shop account should be erased',
        [
          `Hello ${user.displayName},`,
          'You asked us to erase your Boat shop account. Once you confirm, you can no longer sign in, and everything we hold about you is deleted, except the invoices of your orders with the billing name and address on them, which the law requires a business to keep for ten years.',
          'The link works once, for 24 hours, while you are signed in. If you did not ask for this, ignore this e-mail and change your password.',
        ],
        { href: `${publicUrl}/account/erase?token=${encodeURIComponent(token)}`, label: 'Erase my account' },
      ),
    );
  });
}

export type ErasureOutcome = { outcome: 'erased' } | { outcome: 'invalid-link' } | { outcome: 'blocked'; reasons: string[] };

/**
 * Spends the link and erases the account in one transaction, the user row locked: a second click
 * finds the link spent, and an order placed meanwhile is seen by the blockers' check.
 */
export async function confirmErasure(db: Kysely<Database>, userId: string, token: string): Promise<ErasureOutcome> {
  return db.transaction().execute(async (trx) => {
    await trx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().executeTakeFirstOrThrow();
    const spent = await trx
      .updateTable('privacy_requests')
      .set({ state: 'done', completed_at: new Date() })
      .where('user_id', '=', userId)
      .where('kind', '=', 'erasure')
      .where('state', '=', 'awaiting_confirmation')
      .where('token_hash', '=', hashEmailToken(token))
      .where('expires_at', '>', new Date())
      .returning('id')
      .executeTakeFirst();
    if (!spent) return { outcome: 'invalid-link' };
    const reasons = await erasureBlockers(trx, userId);
    if (reasons.length) {
      // The link stays usable once the reasons are gone.
      await trx
        .updateTable('privacy_requests')
        .set({ state: 'awaiting_confirmation', completed_at: null })
        .where('id', '=', spent.id)
        .execute();
      return { outcome: 'blocked', reasons };
    }
    await eraseAccount(trx, userId);
    // The archive of an export is personal data too.
    await trx
      .updateTable('privacy_requests')
      .set({ archive: null, state: 'done' })
      .where('user_id', '=', userId)
      .where('kind', '=', 'export')
      .execute();
    return { outcome: 'erased' };
  });
}
