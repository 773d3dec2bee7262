import type { Db } from '../../db/database.js';
import { escapeHtml } from '../../lib/html.js';
import type { Mail } from '../mail/mailer.js';
import { hashEmailToken, issueEmailToken, spendEmailToken, spendUserEmailTokens } from './email-tokens.js';

export const RESET_TOKEN_TTL_MS = 60 * 60 * 1000;

/** A fresh reset token for the e-mail, valid for an hour. */
export function createResetToken(db: Db, userId: string): Promise<string> {
  return issueEmailToken(db, 'password_reset_tokens', userId, RESET_TOKEN_TTL_MS);
}

/** The user a token may still reset (unused, unexpired), without spending it. */
export async function findResetTokenUser(db: Db, token: string): Promise<{ userId: string; email: string } | undefined> {
  const row = await db
    .selectFrom('password_reset_tokens')
    .innerJoin('users', 'users.id', 'password_reset_tokens.user_id')
    .select(['users.id', 'users.email'])
    .where('password_reset_tokens.token_hash', '=', hashEmailToken(token))
    .where('password_reset_tokens.used_at', 'is', null)
    .where('password_reset_tokens.expires_at', '>', new Date())
    .executeTakeFirst();
  return row ? { userId: row.id, email: row.email } : undefined;
}

/** Spends the reset token; the user id, or undefined when it was not usable (see spendEmailToken). */
export function consumeResetToken(db: Db, token: string): Promise<string | undefined> {
  return spendEmailToken(db, 'password_reset_tokens', token);
}

/** After a reset or a password change, older links in the user's inbox must not work either. */
export function spendOutstandingResetTokens(db: Db, userId: string): Promise<void> {
  return spendUserEmailTokens(db, 'password_reset_tokens', userId);
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
