import { describe, expect } from 'vitest';

import { GOOD_PASSWORD, registration, ShopVisitor } from './browser.js';
import { testWithApp, type TestApp } from '../../support/fixtures.js';
const it = testWithApp({ config: { authRateLimitPerMinute: 0 } });

const NEW_PASSWORD = 'spinnaker-in-the-wind';

describe('signing out everywhere and changing the password', () => {
  /** The same account signed in on a laptop and a phone. */
  async function twoDevices(app: TestApp) {
    const laptop = await ShopVisitor.arrive(app);
    expect((await laptop.post('/api/auth/register', registration())).statusCode).toBe(201);
    const phone = await ShopVisitor.arrive(app);
    expect((await phone.post('/api/auth/login', { email: 'sandy@example.com', password: GOOD_PASSWORD })).statusCode).toBe(200);
    return { laptop, phone };
  }

  describe('POST /api/auth/logout-everywhere', () => {
    it('revokes every session of the user, this one included, and clears the cookie', async ({ app }) => {
      const { laptop, phone } = await twoDevices(app);
      const someoneElse = await ShopVisitor.arrive(app);
      await someoneElse.post('/api/auth/register', registration({ email: 'other@example.com' }));

      const response = await laptop.post('/api/auth/logout-everywhere');
      expect(response.statusCode).toBe(204);
      expect(laptop.cookies.session).toBeUndefined();
      expect(await laptop.sessionUser()).toBeNull();
      expect(await phone.sessionUser()).toBeNull();
      expect(await someoneElse.sessionUser()).not.toBeNull();
      const live = await app.db
        .selectFrom('sessions')
        .innerJoin('users', 'users.id', 'sessions.user_id')
        .select('users.email')
        .where('sessions.revoked_at', 'is', null)
        .execute();
      expect(live).toEqual([{ email: 'other@example.com' }]);
    });

    it('answers 401 without a session and 403 without the CSRF header', async ({ app }) => {
      expect((await (await ShopVisitor.arrive(app)).post('/api/auth/logout-everywhere')).statusCode).toBe(401);
      const { laptop } = await twoDevices(app);
      const noCsrf = await app.inject({ method: 'POST', url: '/api/auth/logout-everywhere', headers: { cookie: laptop.headers().cookie } });
      expect(noCsrf.statusCode).toBe(403);
      expect(await laptop.sessionUser()).not.toBeNull();
    });
  });

  describe('POST /api/auth/password', () => {
    it('changes the password with the current one, signs out every other device and gives this one a fresh session', async ({ app }) => {
      const { laptop, phone } = await twoDevices(app);
      const oldLaptopCookies = { ...laptop.cookies };

      const response = await laptop.post('/api/auth/password', {
        currentPassword: GOOD_PASSWORD,
        password: NEW_PASSWORD,
        confirmPassword: NEW_PASSWORD,
      });
      expect(response.statusCode).toBe(200);
      expect(response.json().user).toMatchObject({ email: 'sandy@example.com' });

      expect(await laptop.sessionUser()).toMatchObject({ email: 'sandy@example.com' });
      expect(laptop.cookies.session).not.toBe(oldLaptopCookies.session);
      expect(await phone.sessionUser()).toBeNull();
      // A copy of this browser's old cookie opens nothing either.
      const copy = new ShopVisitor(app);
      Object.assign(copy.cookies, oldLaptopCookies);
      expect(await copy.sessionUser()).toBeNull();

      const fresh = await ShopVisitor.arrive(app);
      expect((await fresh.post('/api/auth/login', { email: 'sandy@example.com', password: GOOD_PASSWORD })).statusCode).toBe(401);
      expect((await fresh.post('/api/auth/login', { email: 'sandy@example.com', password: NEW_PASSWORD })).statusCode).toBe(200);
    });

    it('refuses a wrong current password, a differing confirmation and a weak password, changing nothing', async ({ app }) => {
      const { laptop, phone } = await twoDevices(app);

      const wrong = await laptop.post('/api/auth/password', {
        currentPassword: 'guess',
        password: NEW_PASSWORD,
        confirmPassword: NEW_PASSWORD,
      });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json().error.details).toEqual(['Your current password is wrong.']);

      const differ = await laptop.post('/api/auth/password', {
        currentPassword: GOOD_PASSWORD,
        password: NEW_PASSWORD,
        confirmPassword: 'x',
      });
      expect(differ.json().error.details).toEqual(["Passwords don't match!"]);

      const weak = await laptop.post('/api/auth/password', {
        currentPassword: GOOD_PASSWORD,
        password: 'password123',
        confirmPassword: 'password123',
      });
      expect(weak.statusCode).toBe(400);

      expect(await phone.sessionUser()).not.toBeNull();
      const fresh = await ShopVisitor.arrive(app);
      expect((await fresh.post('/api/auth/login', { email: 'sandy@example.com', password: GOOD_PASSWORD })).statusCode).toBe(200);
    });

    it('counts wrong current passwords against the sign-in limit, so a stolen session cannot guess on', async ({ app }) => {
      const { laptop } = await twoDevices(app);
      for (let attempt = 0; attempt < 5; attempt += 1) {
        const response = await laptop.post('/api/auth/password', {
          currentPassword: 'guess',
          password: NEW_PASSWORD,
          confirmPassword: NEW_PASSWORD,
        });
        expect(response.statusCode).toBe(400);
      }
      const locked = await laptop.post('/api/auth/password', {
        currentPassword: GOOD_PASSWORD,
        password: NEW_PASSWORD,
        confirmPassword: NEW_PASSWORD,
      });
      expect(locked.statusCode).toBe(429);
    });

    it('answers 401 without a session and 400 to a body without the current password', async ({ app }) => {
      const anonymous = await ShopVisitor.arrive(app);
      expect((await anonymous.post('/api/auth/password', { currentPassword: 'a', password: 'b', confirmPassword: 'b' })).statusCode).toBe(
        401,
      );
      const { laptop } = await twoDevices(app);
      const missing = await laptop.post('/api/auth/password', { password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD });
      expect(missing.statusCode).toBe(400);
      expect(missing.json().error.details).toEqual(['body.currentPassword is required']);
    });
  });
});
