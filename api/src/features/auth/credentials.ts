import { randomBytes } from 'node:crypto';
import { hashPassword, verifyPassword } from '../users/password.js';
import type { UserRow } from '../users/users.table.js';

let dummyHash: Promise<string> | undefined;

/**
 * True when the password is the user's. An unknown e-mail, or an account that only signs in
 * through a provider, still costs one argon2 verification against a throw-away hash, so the
 * answer takes as long as for a real account and timing tells nothing about who is registered.
 */
export async function passwordMatches(user: UserRow | undefined, password: string): Promise<boolean> {
  if (user?.password_hash) return verifyPassword(user.password_hash, password);
  dummyHash ??= hashPassword(randomBytes(16).toString('hex'));
  await verifyPassword(await dummyHash, password);
  return false;
}
