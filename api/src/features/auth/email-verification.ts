import type { Kysely } from 'kysely';
import type { Database, Db } from '../../db/database.js';
import { escapeHtml } from '../../lib/html.js';
import type { Mail } from '../mail/mailer.js';
import { issueEmailToken, spendEmailToken, spendUserEmailTokens } from './email-tokens.js';

/** A day: long enough for an inbox checked once, short enough that an old e-mail is worthless. */
export const VERIFICATION_TOKEN_TTL_MS = 24 * 60 * 60 * 1000;

/** A fresh token for the sign-up (or resent) e-mail. */
export function createVerificationToken(db: Db, userId: string): Promise<string> {
  return issueEmailToken(db, 'email_verification_tokens', userId, VERIFICATION_TOKEN_TTL_MS);
}

/**
 * Marks the e-mail verified. The token is spent in the statement that checks it, so one link
 * works once; every other outstanding link of the account is spent with it. Returns the user id,
 * or undefined when the token was unknown, expired or used.
 */
export async function verifyEmailWithToken(db: Kysely<Database>, token: string): Promise<string | undefined> {
  return db.transaction().execute(async (trx) => {
    const userId = await spendEmailToken(trx, 'email_verification_tokens', token);
    if (!userId) return undefined;
    await markEmailVerified(trx, userId);
    return userId;
  });
}

/** The address is proven (a verification link, a reset link or the provider said so): no link left is needed. */
export async function markEmailVerified(db: Db, userId: string): Promise<void> {
  await db.updateTable('users').set({ email_verified: true }).where('id', '=', userId).execute();
  await spendUserEmailTokens(db, 'email_verification_tokens', userId);
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
