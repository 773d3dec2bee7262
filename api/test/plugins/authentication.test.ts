import type { FastifyInstance } from 'fastify';
import { describe, expect } from 'vitest';
import { revokeSession } from '../../src/features/sessions/sessions.js';
import { createUserWithSession } from '../helpers/users.js';
import { testWithApp } from '../support/fixtures.js';

const it = testWithApp({ extend: probeRoutes });

// Probe routes: the real hooks and decorators, without depending on any feature's routes.
function probeRoutes(app: FastifyInstance) {
  app.get('/test/whoami', async (request) => ({ user: request.user }));
  app.get('/test/user-only', { preHandler: app.requireUser }, async () => ({ ok: true }));
  app.get('/test/admin-only', { preHandler: app.requireAdmin }, async () => ({ ok: true }));
  app.get('/test/boom', async () => {
    throw new Error('secret database detail');
  });
}

describe('authentication hook', () => {
  it('sets request.user from a live session cookie', async ({ app }) => {
    const { user, headers } = await createUserWithSession(app, { displayName: 'Sandy Shopper' });
    const response = await app.inject({ url: '/test/whoami', headers });
    expect(response.json()).toEqual({ user: { ...user, displayName: 'Sandy Shopper', roles: ['user'] } });
  });

  it('treats a missing, forged or revoked session as signed out', async ({ app }) => {
    const { headers, sessionId } = await createUserWithSession(app);
    expect((await app.inject({ url: '/test/whoami' })).json()).toEqual({ user: null });
    const forged = await app.inject({ url: '/test/whoami', headers: { cookie: 'session=not-a-jwt' } });
    expect(forged.json()).toEqual({ user: null });
    await revokeSession(app.db, sessionId);
    expect((await app.inject({ url: '/test/whoami', headers })).json()).toEqual({ user: null });
  });

  it('ignores an expired session row even when its JWT is still valid', async ({ app }) => {
    const { headers, sessionId } = await createUserWithSession(app);
    await app.db
      .updateTable('sessions')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', sessionId)
      .execute();
    expect((await app.inject({ url: '/test/whoami', headers })).json()).toEqual({ user: null });
  });

  it('requireUser answers 401 UNAUTHENTICATED without a session', async ({ app }) => {
    const response = await app.inject({ url: '/test/user-only' });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ error: { code: 'UNAUTHENTICATED', message: 'Sign in required' } });
    const { headers } = await createUserWithSession(app);
    expect((await app.inject({ url: '/test/user-only', headers })).statusCode).toBe(200);
  });

  it('requireAdmin answers 401 without a session and 403 without the admin role', async ({ app }) => {
    expect((await app.inject({ url: '/test/admin-only' })).statusCode).toBe(401);
    const shopper = await createUserWithSession(app);
    const forbidden = await app.inject({ url: '/test/admin-only', headers: shopper.headers });
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json().error.code).toBe('FORBIDDEN');
    const admin = await createUserWithSession(app, { roles: ['user', 'owner'] });
    expect((await app.inject({ url: '/test/admin-only', headers: admin.headers })).statusCode).toBe(200);
  });

  it('reads the admin role from the users row on every request, not from the token', async ({ app, admin }) => {
    await app.db
      .updateTable('users')
      .set({ roles: ['user'] })
      .where('id', '=', admin.user.id)
      .execute();
    expect((await app.inject({ url: '/test/admin-only', headers: admin.headers })).statusCode).toBe(403);
  });
});

describe('error handling', () => {
  it('hides 5xx details from the client', async ({ app }) => {
    const response = await app.inject({ url: '/test/boom' });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ error: { code: 'INTERNAL', message: 'Internal server error' } });
  });

  it('answers unknown routes with the one error body', async ({ app }) => {
    const response = await app.inject({ url: '/api/nowhere' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: { code: 'NOT_FOUND', message: 'Route GET /api/nowhere not found' } });
  });

  it('serves the OpenAPI description at /api/docs', async ({ app }) => {
    const response = await app.inject({ url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    expect(response.json().paths).toHaveProperty('/api/health/');
  });
});
