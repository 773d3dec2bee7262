import { staffRoleOf } from '@boatshop/contract';
import type { onRequestHookHandler, preHandlerAsyncHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { findSessionUser, SESSION_COOKIE, type SessionToken } from '../../features/sessions/sessions.js';
import type { AuthUser } from '../../features/users/users.repository.js';
import { forbidden, unauthenticated } from '../../lib/errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user, or null. Set on every request from the `session` cookie and the DB. */
    user: AuthUser | null;
    /** The id of the session row behind `user`, e.g. for logout. */
    sessionId: string | null;
  }
  interface FastifyInstance {
    /** preHandler: 401 UNAUTHENTICATED without a live session. */
    requireUser: preHandlerAsyncHookHandler;
    /** preHandler: 401 without a session, 403 FORBIDDEN without a staff role (contract STAFF_ROLES) on the users row. */
    requireAdmin: preHandlerAsyncHookHandler;
  }
}

declare module '@fastify/jwt' {
  interface FastifyJWT {
    payload: SessionToken;
    // request.user is ours (AuthUser | null), not the decoded token.
    user: AuthUser | null;
  }
}

function isSessionToken(value: unknown): value is SessionToken {
  const token = value as Partial<SessionToken> | null;
  return typeof token?.sid === 'string' && typeof token.sub === 'string';
}

/**
 * The one seam identity plugs into: the session cookie is checked against the `sessions` table
 * on every request, so a revoked session stops working at once on every replica.
 */
export default fp(
  async (fastify) => {
    fastify.decorateRequest('user', null);
    fastify.decorateRequest('sessionId', null);
    // features/audit/audit-log.ts: whether the route wrote its own audit row.
    fastify.decorateRequest('auditRecorded', false);

    const authenticate: onRequestHookHandler = async (request) => {
      const cookie = request.cookies[SESSION_COOKIE];
      if (!cookie) return;
      let token: unknown;
      try {
        token = fastify.jwt.verify(cookie);
      } catch {
        // A stale or forged cookie just means "signed out"; public pages keep working.
        return;
      }
      if (!isSessionToken(token)) return;
      const user = await findSessionUser(fastify.db, token);
      if (!user) return;
      request.user = user;
      request.sessionId = token.sid;
    };
    fastify.addHook('onRequest', authenticate);

    fastify.decorate('requireUser', async (request) => {
      if (!request.user) throw unauthenticated();
    });
    fastify.decorate('requireAdmin', async (request) => {
      if (!request.user) throw unauthenticated();
      if (!staffRoleOf(request.user.roles)) throw forbidden('Staff only');
    });
  },
  { name: 'authentication', dependencies: ['database', 'jwt', 'cookie'] },
);
