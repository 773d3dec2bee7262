import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import { rotateCsrfCookie } from '../../plugins/app/csrf.js';
import { rowToAuthUser, type AuthUser } from '../users/users.repository.js';

// Every way a session begins, changes hands or ends: the `sessions` rows, the signed `session`
// cookie that names one, and the csrf token that is renewed with it. Routes call the verbs at the
// bottom (signIn, signOut, signOutEverywhere, replaceAllSessions + setSessionCookie); the rest
// is exported for the authentication plugin, account take-overs and the tests.

export const SESSION_COOKIE = 'session';

/** What the session JWT carries: the session row and its user. Everything else is read from the DB. */
export interface SessionToken {
  sid: string;
  sub: string;
}

export interface CreatedSession {
  id: string;
  userId: string;
  expiresAt: Date;
}

export async function createSession(db: Db, userId: string, ttlSeconds: number): Promise<CreatedSession> {
  const row = await db
    .insertInto('sessions')
    .values({ user_id: userId, expires_at: new Date(Date.now() + ttlSeconds * 1000) })
    .returning(['id', 'user_id', 'expires_at'])
    .executeTakeFirstOrThrow();
  return { id: row.id, userId: row.user_id, expiresAt: row.expires_at };
}

export async function revokeSession(db: Db, sessionId: string): Promise<void> {
  await db.updateTable('sessions').set({ revoked_at: new Date() }).where('id', '=', sessionId).where('revoked_at', 'is', null).execute();
}

/**
 * Signs the user out everywhere (a password reset or change, a provider taking over an
 * unverified account, "sign out everywhere"), except the session `keep` when one is named.
 */
export async function revokeUserSessions(db: Db, userId: string, options: { keep?: string | null } = {}): Promise<void> {
  let query = db.updateTable('sessions').set({ revoked_at: new Date() }).where('user_id', '=', userId).where('revoked_at', 'is', null);
  if (options.keep) query = query.where('id', '<>', options.keep);
  await query.execute();
}

/** The user of a live session (not revoked, not expired), with roles fresh from the users row. */
export async function findSessionUser(db: Db, token: SessionToken): Promise<AuthUser | null> {
  const row = await db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select(['users.id', 'users.email', 'users.display_name', 'users.roles', 'users.email_verified'])
    .select(sql<boolean>`users.password_hash is not null`.as('has_password'))
    .where('sessions.id', '=', token.sid)
    .where('sessions.user_id', '=', token.sub)
    .where('sessions.revoked_at', 'is', null)
    .where('sessions.expires_at', '>', new Date())
    .executeTakeFirst();
  return row ? rowToAuthUser(row) : null;
}

function cookieOptions(reply: FastifyReply) {
  return {
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: reply.server.config.publicUrl.startsWith('https:'),
    path: '/',
  };
}

/** The `session` cookie's value: a JWT naming the session row, expiring with it. */
export function signSessionToken(fastify: FastifyInstance, session: CreatedSession): string {
  const token: SessionToken = { sid: session.id, sub: session.userId };
  const expiresInSeconds = Math.max(1, Math.floor((session.expiresAt.getTime() - Date.now()) / 1000));
  return fastify.jwt.sign(token, { expiresIn: expiresInSeconds });
}

/** Hands the browser the session, with a fresh csrf token: one planted or read before cannot ride along. */
export function setSessionCookie(reply: FastifyReply, session: CreatedSession): void {
  reply.setCookie(SESSION_COOKIE, signSessionToken(reply.server, session), {
    ...cookieOptions(reply),
    expires: session.expiresAt,
  });
  rotateCsrfCookie(reply);
}

function clearSessionCookie(reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, cookieOptions(reply));
  rotateCsrfCookie(reply);
}

/**
 * Signs `userId` in on this browser (password, registration, provider). Signing in on top of an
 * old session replaces it rather than leaving it alive without its cookie.
 */
export async function signIn(request: FastifyRequest, reply: FastifyReply, userId: string): Promise<void> {
  const { db, config } = request.server;
  if (request.sessionId) await revokeSession(db, request.sessionId);
  setSessionCookie(reply, await createSession(db, userId, config.sessionTtlSeconds));
}

/** Ends this browser's session on the server and clears its cookie. */
export async function signOut(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  if (request.sessionId) await revokeSession(request.server.db, request.sessionId);
  clearSessionCookie(reply);
}

/** Ends every session of the signed-in user, this one too. */
export async function signOutEverywhere(request: FastifyRequest, reply: FastifyReply, userId: string): Promise<void> {
  await revokeUserSessions(request.server.db, userId);
  clearSessionCookie(reply);
}

/**
 * After a password change every session goes, this one too: a new one for this browser, so a
 * copy of the old cookie, wherever it is, opens nothing. Runs in the change's transaction; hand
 * the result to setSessionCookie once it has committed.
 */
export async function replaceAllSessions(trx: Db, userId: string, ttlSeconds: number): Promise<CreatedSession> {
  await revokeUserSessions(trx, userId);
  return createSession(trx, userId, ttlSeconds);
}
