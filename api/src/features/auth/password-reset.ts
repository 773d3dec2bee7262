import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../../db/database.js';
import type { Mail } from '../mail/mailer.js';

export const RESET_TOKEN_TTL_MS = 60 * 60 * 1000;

/** The stored form of an e-mailed token (reset and verification links alike). */
export function hashResetToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** A fresh random token for the e-mail; only its hash is stored. */
export async function createResetToken(db: Db, userId: string): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db
    .insertInto('password_reset_tokens')
    .values({ user_id: userId, token_hash: hashResetToken(token), expires_at: new Date(Date.now() + RESET_TOKEN_TTL_MS) })
    .execute();
  return token;
}

/** The user a token may still reset (unused, unexpired), without spending it. */
export async function findResetTokenUser(db: Db, token: string): Promise<{ userId: string; email: string } | undefined> {
  const row = await db
    .selectFrom('password_reset_tokens')
    .innerJoin('users', 'users.id', 'password_reset_tokens.user_id')
    .select(['users.id', 'users.email'])
    .where('password_reset_tokens.token_hash', '=', hashResetToken(token))
    .where('password_reset_tokens.used_at', 'is', null)
    .where('password_reset_tokens.expires_at', '>', new Date())
    .executeTakeFirst();
  return row ? { userId: row.id, email: row.email } : undefined;
}

/**
 * Spends the token in the statement that checks it, so two requests racing with one link
 * cannot both succeed. Returns the user id, or undefined when the token was not usable.
 */
export async function consumeResetToken(db: Db, token: string): Promise<string | undefined> {
  const row = await db
    .updateTable('password_reset_tokens')
    .set({ used_at: new Date() })
    .where('token_hash', '=', hashResetToken(token))
    .where('used_at', 'is', null)
    .where('expires_at', '>', new Date())
    .returning('user_id')
    .executeTakeFirst();
  return row?.user_id;
}

/** After a reset, older links in the user's inbox must not work either. */
export async function spendOutstandingResetTokens(db: Db, userId: string): Promise<void> {
  await db
    .updateTable('password_reset_tokens')
    .set({ used_at: new Date() })
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .execute();
}

/** Signs the user out everywhere except, when they are signed in right here, this browser. */
export async function revokeOtherSessions(db: Db, userId: string, keepSessionId: string | null): Promise<void> {
  let query = db.updateTable('sessions').set({ revoked_at: new Date() }).where('user_id', '=', userId).where('revoked_at', 'is', null);
  if (keepSessionId) query = query.where('id', '<>', keepSessionId);
  await query.execute();
}

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

export function resetLink(publicUrl: string, token: string): string {
  return `${publicUrl}/password-reset/confirm?token=${encodeURIComponent(token)}`;
}

export function passwordResetMail(options: { to: string; displayName: string; link: string }): Mail {
  const { to, displayName, link } = options;
  return {
    to,
    subject: 'Reset your Boat shop password',
    text: [
      `Hello ${displayName},`,
      '',
      'Someone asked to reset the password of your Boat shop account. To choose a new password, open this link:',
      link,
      '',
      'The link works once and expires in 1 hour. If you did not ask for it, ignore this e-mail: your password stays as it is.',
    ].join('\n'),
    html: `<p>Hello ${escapeHtml(displayName)},</p>
<p>Someone asked to reset the password of your Boat shop account. To choose a new password, open this link:</p>
<p><a href="${escapeHtml(link)}">Choose a new password</a></p>
<p>The link works once and expires in 1 hour. If you did not ask for it, ignore this e-mail: your password stays as it is.</p>`,
  };
}
