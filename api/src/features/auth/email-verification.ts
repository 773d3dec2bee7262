import type { Kysely } from 'kysely';
import type { Database, Db } from '../../db/database.js';
import { escapeHtml } from '../../lib/html.js';
import type { Mail } from '../mail/mailer.js';
import { PASSWORDS_DIFFER } from './auth-messages.js';
import { revokeUserSessions } from '../sessions/sessions.js';
import { hashPassword } from '../users/password.js';
import { passwordPolicyProblems } from '../users/password-policy.js';
import { unlinkUnverifiedIdentities, updatePasswordHash } from '../users/users.repository.js';
import { hashEmailToken, issueEmailToken, spendEmailToken, spendUserEmailTokens } from './email-tokens.js';

/** A day: long enough for an inbox checked once, short enough that an old e-mail is worthless. */
export const VERIFICATION_TOKEN_TTL_MS = 24 * 60 * 60 * 1000;

/** A fresh token for the sign-up (or resent) e-mail. */
export function createVerificationToken(db: Db, userId: string): Promise<string> {
  return issueEmailToken(db, 'email_verification_tokens', userId, VERIFICATION_TOKEN_TTL_MS);
}

/** The account a verification link belongs to, without spending it; undefined when unusable. */
export async function findVerificationTokenUser(db: Db, token: string): Promise<{ userId: string; email: string } | undefined> {
  const row = await db
    .selectFrom('email_verification_tokens')
    .innerJoin('users', 'users.id', 'email_verification_tokens.user_id')
    .select(['users.id', 'users.email'])
    .where('email_verification_tokens.token_hash', '=', hashEmailToken(token))
    .where('email_verification_tokens.used_at', 'is', null)
    .where('email_verification_tokens.expires_at', '>', new Date())
    .executeTakeFirst();
  return row ? { userId: row.id, email: row.email } : undefined;
}

/**
 * Confirms the address behind a verification link. The link proves the mailbox, not that its owner
 * chose the account's password: anyone may sign up with someone else's address. So:
 * - opened in a browser signed in to the account (the registrant proved the password here), the
 *   address is verified and every other session of the account ends;
 * - opened anywhere else, it is verified only together with a new password (`newPassword`):
 *   the password chosen at sign-up stops working, every session of the account ends, and provider
 *   identities linked while the address was unproven are unlinked. Without one, nothing is spent
 *   and the answer is `password-required` (docs/people.md, "E-mail verification"; ADR 0023).
 * The token is spent in the statement that checks it, so one link works once; every other
 * outstanding link of the account is spent with it.
 */
export async function confirmEmailAddress(
  db: Kysely<Database>,
  input: {
    token: string;
    signedIn: { userId: string; sessionId: string } | null;
    newPassword: { password: string; confirmPassword: string } | null;
  },
): Promise<
  | { outcome: 'verified'; userId: string }
  | { outcome: 'password-required' }
  | { outcome: 'invalid' }
  | { outcome: 'password-refused'; problems: string[] }
> {
  const owner = await findVerificationTokenUser(db, input.token);
  if (!owner) return { outcome: 'invalid' };
  const registrantHere = input.signedIn?.userId === owner.userId;
  let passwordHash: string | null = null;
  if (!registrantHere) {
    if (!input.newPassword) return { outcome: 'password-required' };
    const { password, confirmPassword } = input.newPassword;
    // Checked before the token is spent, so a refused password can be retried with the same link.
    const problems = [...(password !== confirmPassword ? [PASSWORDS_DIFFER] : []), ...passwordPolicyProblems(password, owner.email)];
    if (problems.length > 0) return { outcome: 'password-refused', problems };
    passwordHash = await hashPassword(password);
  }
  return db.transaction().execute(async (trx) => {
    if ((await spendEmailToken(trx, 'email_verification_tokens', input.token)) !== owner.userId) return { outcome: 'invalid' as const };
    await markEmailVerified(trx, owner.userId);
    if (registrantHere) {
      await revokeUserSessions(trx, owner.userId, { keep: input.signedIn!.sessionId });
    } else {
      await updatePasswordHash(trx, owner.userId, passwordHash);
      await spendUserEmailTokens(trx, 'password_reset_tokens', owner.userId);
      await revokeUserSessions(trx, owner.userId);
      await unlinkUnverifiedIdentities(trx, owner.userId);
    }
    return { outcome: 'verified' as const, userId: owner.userId };
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
