import { describe, expect } from 'vitest';

import { GOOD_PASSWORD, registration, ShopVisitor } from './browser.js';
import { it } from '../../support/fixtures.js';

// A csrf token planted or read before sign-in (a shared computer, a fixation through a sibling
// subdomain) must not stay valid for the signed-in session, nor outlive the sign-out.
describe('the csrf token is renewed when the session changes hands', () => {
  function csrfSet(response: { cookies: { name: string; value: string }[] }): string | undefined {
    return response.cookies.find((cookie) => cookie.name === 'csrf')?.value;
  }

  it('login, registration and logout each hand out a fresh csrf token, and the shop keeps working with it', async ({ app }) => {
    await (await ShopVisitor.arrive(app)).post('/api/auth/register', registration({ email: 'first@example.com' }));

    const visitor = await ShopVisitor.arrive(app);
    const beforeRegister = visitor.cookies.csrf;
    const registered = await visitor.post('/api/auth/register', registration());
    expect(registered.statusCode).toBe(201);
    expect(csrfSet(registered)).toMatch(/^[A-Za-z0-9_-]{32,}$/);
    expect(csrfSet(registered)).not.toBe(beforeRegister);

    const beforeLogout = visitor.cookies.csrf;
    const loggedOut = await visitor.post('/api/auth/logout');
    expect(loggedOut.statusCode).toBe(204);
    expect(csrfSet(loggedOut)).toMatch(/^[A-Za-z0-9_-]{32,}$/);
    expect(csrfSet(loggedOut)).not.toBe(beforeLogout);

    const beforeLogin = visitor.cookies.csrf;
    const loggedIn = await visitor.post('/api/auth/login', { email: 'sandy@example.com', password: GOOD_PASSWORD });
    expect(loggedIn.statusCode).toBe(200);
    expect(csrfSet(loggedIn)).toMatch(/^[A-Za-z0-9_-]{32,}$/);
    expect(csrfSet(loggedIn)).not.toBe(beforeLogin);

    // The renewed token works for the next state-changing request.
    expect((await visitor.post('/api/auth/logout')).statusCode).toBe(204);
  });
});
