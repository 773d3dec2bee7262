import type { FastifyInstance, FastifyReply } from 'fastify';
import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import { rotateCsrfCookie } from '../../plugins/app/csrf.js';
import { rowToAuthUser, type AuthUser } from '../users/users.repository.js';

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

/** Signs out everywhere, e.g. after a password reset. */
export async function revokeUserSessions(db: Db, userId: string): Promise<void> {
  await db.updateTable('sessions').set({ revoked_at: new Date() }).where('user_id', '=', userId).where('revoked_at', 'is', null).execute();
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

export function setSessionCookie(reply: FastifyReply, session: CreatedSession): void {
  reply.setCookie(SESSION_COOKIE, signSessionToken(reply.server, session), {
    ...cookieOptions(reply),
    expires: session.expiresAt,
  });
  rotateCsrfCookie(reply);
}

export function clearSessionCookie(reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, cookieOptions(reply));
  rotateCsrfCookie(reply);
}
