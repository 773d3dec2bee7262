import { CSRF_COOKIE, CSRF_HEADER } from '@boatshop/contract';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError } from '../../lib/errors.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
// The payment provider cannot echo a browser cookie; that route checks the provider's signature instead.
// The payment provider's webhook, and the alert e-mails' one-click unsubscribe (a signed token).
const EXEMPT_ROUTES = new Set(['/api/payments/webhook', '/api/saved-searches/unsubscribe']);
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{32,}$/;

function csrfRejected(): ApiError {
  return new ApiError(403, 'CSRF_REJECTED', 'This request did not come from the shop. Reload the page and try again.');
}

/**
 * Hands out the double-submit token (GET /api/auth/session calls this). The shop's scripts can
 * read it and echo it in `x-csrf-token`; another site can neither read it nor set the header.
 * An existing well-formed token is kept so that open tabs stay valid.
 */
export function issueCsrfCookie(request: FastifyRequest, reply: FastifyReply): void {
  const existing = request.cookies[CSRF_COOKIE];
  setCsrfCookie(reply, existing && TOKEN_PATTERN.test(existing) ? existing : randomBytes(32).toString('base64url'));
}

/**
 * A fresh token whenever the session changes hands (sign-in, registration, password change,
 * sign-out): a token planted or read before cannot ride along into the new session. The shop's
 * API client reads the cookie before every request, so open tabs pick the new one up.
 */
export function rotateCsrfCookie(reply: FastifyReply): void {
  setCsrfCookie(reply, randomBytes(32).toString('base64url'));
}

function setCsrfCookie(reply: FastifyReply, token: string): void {
  reply.setCookie(CSRF_COOKIE, token, {
    httpOnly: false,
    sameSite: 'strict',
    secure: reply.server.config.publicUrl.startsWith('https:'),
    path: '/',
  });
}

function sameToken(cookie: string | undefined, header: string | string[] | undefined): boolean {
  if (typeof cookie !== 'string' || typeof header !== 'string' || !TOKEN_PATTERN.test(cookie)) return false;
  const a = Buffer.from(cookie);
  const b = Buffer.from(header);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Every state-changing request must come from the shop: an Origin header, when the browser
 * sends one, must be the shop's (PUBLIC_URL, or the origin the request was addressed to through
 * the shell's proxy), and the `x-csrf-token` header must equal the `csrf` cookie. Checked before
 * the body is read or any route runs.
 */
export default fp(
  async (fastify) => {
    const publicOrigin = new URL(fastify.config.publicUrl).origin;

    fastify.addHook('onRequest', async (request) => {
      if (SAFE_METHODS.has(request.method)) return;
      if (request.routeOptions.url !== undefined && EXEMPT_ROUTES.has(request.routeOptions.url)) return;
      const origin = request.headers.origin;
      if (origin !== undefined && origin !== publicOrigin && origin !== `${request.protocol}://${request.host}`) {
        throw csrfRejected();
      }
      if (!sameToken(request.cookies[CSRF_COOKIE], request.headers[CSRF_HEADER])) throw csrfRejected();
    });
  },
  { name: 'csrf', dependencies: ['cookie'] },
);
