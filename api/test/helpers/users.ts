import { randomBytes } from 'node:crypto';
import { createSession, SESSION_COOKIE, signSessionToken } from '../../src/features/sessions/sessions.js';
import { hashPassword } from '../../src/features/users/password.js';
import { insertUser, rowToAuthUser, type AuthUser } from '../../src/features/users/users.repository.js';
import { CSRF_COOKIE, CSRF_HEADER } from '@boatshop/contract';
import type { TestApp } from './build-test-app.js';

let counter = 0;
// Default e-mails must not meet those of an earlier test file whose rows are still in the
// database: on PostgreSQL the files of a worker share one, and they share one process too
// (isolate: false), so the process id no longer tells them apart. This module is evaluated anew
// for every file (test/support/fresh-modules.ts), and so is this prefix.
const fileToken = randomBytes(6).toString('hex');

export interface UserWithSession {
  user: AuthUser;
  sessionId: string;
  /** cookie name → value, to merge with cookies of your own */
  cookies: Record<string, string>;
  /** ready for `app.inject({ headers })`: the cookie header (session and csrf) and the CSRF header */
  headers: Record<string, string>;
}

/**
 * The extra cookies and headers a state-changing request must carry: the `csrf` cookie the API
 * hands out on GET /api/auth/session, echoed in the `x-csrf-token` header (double submit).
 */
export async function csrfCredentials(app: TestApp): Promise<{ cookies: Record<string, string>; headers: Record<string, string> }> {
  const response = await app.inject({ method: 'GET', url: '/api/auth/session' });
  const csrf = response.cookies.find((cookie) => cookie.name === CSRF_COOKIE)?.value;
  if (!csrf) throw new Error('GET /api/auth/session set no csrf cookie');
  return { cookies: { [CSRF_COOKIE]: csrf }, headers: { [CSRF_HEADER]: csrf } };
}

export function cookieHeader(cookies: Record<string, string>): string {
  return Object.entries(cookies)
    .map(([name, value]) => `${name}=${value}`)
    .join('; ');
}

/** A user row (unique e-mail unless given) with a live session, signed exactly as the API signs it. */
export async function createUserWithSession(
  app: TestApp,
  options: { roles?: string[]; email?: string; displayName?: string; password?: string; emailVerified?: boolean } = {},
): Promise<UserWithSession> {
  counter += 1;
  const row = await insertUser(app.db, {
    email: options.email ?? `user-${fileToken}-${counter}@example.test`,
    display_name: options.displayName ?? `Test User ${counter}`,
    // The former all-powerful `admin` is `owner` (as the staff-roles migration turns stored rows).
    roles: (options.roles ?? ['user']).map((role) => (role === 'admin' ? 'owner' : role)),
    password_hash: options.password ? await hashPassword(options.password) : null,
    // Verified unless a test says otherwise: only a verified account may hold a one-off boat.
    email_verified: options.emailVerified ?? true,
  });
  const session = await createSession(app.db, row.id, app.config.sessionTtlSeconds);
  const csrf = await csrfCredentials(app);
  const cookies = { [SESSION_COOKIE]: signSessionToken(app, session), ...csrf.cookies };
  return {
    user: rowToAuthUser(row),
    sessionId: session.id,
    cookies,
    headers: { cookie: cookieHeader(cookies), ...csrf.headers },
  };
}
