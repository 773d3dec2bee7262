import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database, Db } from '../../db/database.js';
import type { Mail } from '../mail/mailer.js';
import { escapeHtml, hashResetToken } from './password-reset.js';

/** A day: long enough for an inbox checked once, short enough that an old e-mail is worthless. */
export const VERIFICATION_TOKEN_TTL_MS = 24 * 60 * 60 * 1000;

/** A fresh random token for the sign-up (or resent) e-mail; only its hash is stored. */
export async function createVerificationToken(db: Db, userId: string): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db
    .insertInto('email_verification_tokens')
    .values({ user_id: userId, token_hash: hashResetToken(token), expires_at: new Date(Date.now() + VERIFICATION_TOKEN_TTL_MS) })
    .execute();
  return token;
}

/**
 * Marks the e-mail verified. The token is spent in the statement that checks it, so one link
 * works once; every other outstanding link of the account is spent with it. Returns the user id,
 * or undefined when the token was unknown, expired or used.
 */
export async function verifyEmailWithToken(db: Kysely<Database>, token: string): Promise<string | undefined> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable('email_verification_tokens')
      .set({ used_at: new Date() })
      .where('token_hash', '=', hashResetToken(token))
      .where('used_at', 'is', null)
      .where('expires_at', '>', new Date())
      .returning('user_id')
      .executeTakeFirst();
    if (!row) return undefined;
    await markEmailVerified(trx, row.user_id);
    return row.user_id;
  });
}

/** The address is proven (a verification link, a reset link or the provider said so): no link left is needed. */
export async function markEmailVerified(db: Db, userId: string): Promise<void> {
  await db.updateTable('users').set({ email_verified: true }).where('id', '=', userId).execute();
  await spendVerificationTokens(db, userId);
}

export async function spendVerificationTokens(db: Db, userId: string): Promise<void> {
  await db
    .updateTable('email_verification_tokens')
    .set({ used_at: new Date() })
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .execute();
}

export function verificationLink(publicUrl: string, token: string): string {
  return `${publicUrl}/verify-email?token=${encodeURIComponent(token)}`;
}

export function verificationMail(options: { to: string; displayName: string; link: string }): Mail {
  const { to, displayName, link } = options;
  return {
    to,
    subject: 'Confirm your Boat shop e-mail address',
    text: [
      `Hello ${displayName},`,
      '',
      'Please confirm that this is your e-mail address by opening this link:',
      link,
      '',
      'The link works once and expires in 24 hours. If you did not create a Boat shop account, ignore this e-mail.',
    ].join('\n'),
    html: `<p>Hello ${escapeHtml(displayName)},</p>
<p>Please confirm that this is your e-mail address by opening this link:</p>
<p><a href="${escapeHtml(link)}">Confirm my e-mail address</a></p>
<p>The link works once and expires in 24 hours. If you did not create a Boat shop account, ignore this e-mail.</p>`,
  };
}
