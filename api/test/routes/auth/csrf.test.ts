import { describe, expect } from 'vitest';

import { cookieHeader, createUserWithSession } from '../../helpers/users.js';
import { testWithApp } from '../../support/fixtures.js';
const it = testWithApp({ config: { publicUrl: 'https://boats.example' } });

const REJECTED = {
  error: { code: 'CSRF_REJECTED', message: 'This request did not come from the shop. Reload the page and try again.' },
};

describe('cross-site request forgery protection', () => {
  it('refuses a state-changing request without the x-csrf-token header, before the route runs', async ({ app }) => {
    const { cookies, sessionId } = await createUserWithSession(app);
    const response = await app.inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie: cookieHeader(cookies) } });

    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual(REJECTED);
    const session = await app.db.selectFrom('sessions').select('revoked_at').where('id', '=', sessionId).executeTakeFirstOrThrow();
    expect(session.revoked_at).toBeNull();
  });

  it('refuses a header that does not match the csrf cookie, and a header without the cookie', async ({ app }) => {
    const { cookies } = await createUserWithSession(app);
    const forged = 'A'.repeat(43);
    const mismatch = await app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { cookie: cookieHeader(cookies), 'x-csrf-token': forged },
    });
    expect(mismatch.statusCode).toBe(403);

    const { csrf: _csrf, ...withoutCsrfCookie } = cookies;
    const noCookie = await app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { cookie: cookieHeader(withoutCsrfCookie), 'x-csrf-token': cookies.csrf! },
    });
    expect(noCookie.statusCode).toBe(403);
  });

  it("refuses a request from another site's page even when it carries a matching token", async ({ app }) => {
    const { headers } = await createUserWithSession(app);
    const response = await app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { ...headers, origin: 'https://evil.example' },
    });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual(REJECTED);
  });

  it("accepts the shop's own origin, directly or as the shell's proxy forwards it", async ({ app }) => {
    const direct = await createUserWithSession(app);
    const fromShop = await app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { ...direct.headers, origin: 'https://boats.example' },
    });
    expect(fromShop.statusCode).toBe(204);

    const proxied = await createUserWithSession(app);
    const throughProxy = await app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: {
        ...proxied.headers,
        origin: 'http://localhost:5173',
        'x-forwarded-host': 'localhost:5173',
        'x-forwarded-proto': 'http',
      },
    });
    expect(throughProxy.statusCode).toBe(204);
  });

  it('leaves reads alone and exempts only the payment webhook, which is verified by signature', async ({ app }) => {
    expect((await app.inject({ method: 'GET', url: '/api/auth/session', headers: { origin: 'https://evil.example' } })).statusCode).toBe(
      200,
    );
    const webhook = await app.inject({ method: 'POST', url: '/api/payments/webhook', payload: {} });
    expect(webhook.json().error?.code).not.toBe('CSRF_REJECTED');
    const other = await app.inject({ method: 'POST', url: '/api/auth/password-reset', payload: { email: 'a@example.com' } });
    expect(other.json()).toEqual(REJECTED);
  });
});
