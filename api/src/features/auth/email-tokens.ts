import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../../db/database.js';

/**
 * The single-use tokens that e-mailed links carry (password reset, e-mail verification). Both
 * tables have the same columns; only the token's hash is stored, so a leaked table opens nothing.
 */
export type EmailTokenTable = 'password_reset_tokens' | 'email_verification_tokens';

/** The stored form of an e-mailed token. */
export function hashEmailToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** A fresh random token for the e-mail, valid for `ttlMs`; only its hash is stored. */
export async function issueEmailToken(db: Db, table: EmailTokenTable, userId: string, ttlMs: number): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db
    .insertInto(table)
    .values({ user_id: userId, token_hash: hashEmailToken(token), expires_at: new Date(Date.now() + ttlMs) })
    .execute();
  return token;
}

/**
 * Spends the token in the statement that checks it, so two requests racing with one link
 * cannot both succeed. Returns the user id, or undefined when the token was unknown, expired or used.
 */
export async function spendEmailToken(db: Db, table: EmailTokenTable, token: string): Promise<string | undefined> {
  const row = await db
    .updateTable(table)
    .set({ used_at: new Date() })
    .where('token_hash', '=', hashEmailToken(token))
    .where('used_at', 'is', null)
    .where('expires_at', '>', new Date())
    .returning('user_id')
    .executeTakeFirst();
  return row?.user_id;
}

/** Spends every outstanding token of the user: older links in the inbox must not work either. */
export async function spendUserEmailTokens(db: Db, table: EmailTokenTable, userId: string): Promise<void> {
  await db.updateTable(table).set({ used_at: new Date() }).where('user_id', '=', userId).where('used_at', 'is', null).execute();
}
