import { describe, expect } from 'vitest';

import { GOOD_PASSWORD, registration, ShopVisitor } from './browser.js';
import { it } from '../../support/fixtures.js';

describe('POST /api/auth/register', () => {
  it('creates a user with role user, hashes the password and signs the new user in', async ({ app }) => {
    const visitor = await ShopVisitor.arrive(app);
    const response = await visitor.post('/api/auth/register', registration({ displayName: '  Sandy Shopper ' }));

    expect(response.statusCode).toBe(201);
    const { user } = response.json();
    expect(user).toEqual({
      id: expect.any(String),
      displayName: 'Sandy Shopper',
      email: 'sandy@example.com',
      userRoles: ['user'],
      emailVerified: false,
      hasPassword: true,
    });
    const session = response.cookies.find((cookie) => cookie.name === 'session');
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(await visitor.sessionUser()).toEqual(user);

    const row = await app.db.selectFrom('users').selectAll().where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
    expect(row.password_hash).not.toContain(GOOD_PASSWORD);
  });

  it('refuses an e-mail that is already registered, whatever its case', async ({ app }) => {
    await (await ShopVisitor.arrive(app)).post('/api/auth/register', registration());
    const response = await (await ShopVisitor.arrive(app)).post('/api/auth/register', registration({ email: 'Sandy@Example.COM' }));

    expect(response.statusCode).toBe(409);
    const message = 'An account with this e-mail already exists. Log in or reset your password.';
    expect(response.json()).toEqual({ error: { code: 'EMAIL_TAKEN', message, details: [message] } });
    expect(response.cookies.find((cookie) => cookie.name === 'session')).toBeUndefined();
  });

  it("says 'Passwords don't match!' when the confirmation differs", async ({ app }) => {
    const visitor = await ShopVisitor.arrive(app);
    const response = await visitor.post('/api/auth/register', registration({ confirmPassword: 'mizzen-mast-at-dusk' }));

    expect(response.statusCode).toBe(400);
    expect(response.json().error.details).toEqual(["Passwords don't match!"]);
    expect(await app.db.selectFrom('users').select('id').execute()).toEqual([]);
  });

  it('lists every password policy problem, and the missing name and bad e-mail, in one answer', async ({ app }) => {
    const visitor = await ShopVisitor.arrive(app);
    const short = await visitor.post('/api/auth/register', registration({ displayName: ' ', email: 'not-an-email', password: 'abc' }));
    expect(short.statusCode).toBe(400);
    expect(short.json().error).toEqual({
      code: 'VALIDATION',
      message: 'Please correct the problems listed.',
      details: ['Please enter your full name.', 'Please enter a valid e-mail address.', 'Password must be at least 8 characters long.'],
    });

    const common = await visitor.post('/api/auth/register', registration({ password: 'Password123' }));
    expect(common.json().error.details).toEqual(['This password is too common. Choose one that is harder to guess.']);

    const ownEmail = await visitor.post('/api/auth/register', registration({ password: 'SANDY@example.com' }));
    expect(ownEmail.json().error.details).toEqual(['Password must not be your e-mail address.']);
  });

  it('rejects a body that misses fields with a list of what is missing', async ({ app }) => {
    const visitor = await ShopVisitor.arrive(app);
    const response = await visitor.post('/api/auth/register', { email: 'sandy@example.com' });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.details).toEqual(
      expect.arrayContaining(['body.displayName is required', 'body.password is required', 'body.confirmPassword is required']),
    );
  });

  it('limits sign-up attempts per e-mail address', async ({ app }) => {
    for (let attempt = 0; attempt < 10; attempt += 1) {
      const weak = await (await ShopVisitor.arrive(app)).post('/api/auth/register', registration({ password: 'abc' }));
      expect(weak.statusCode).toBe(400);
    }
    const blocked = await (await ShopVisitor.arrive(app)).post('/api/auth/register', registration());
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().error).toEqual({
      code: 'RATE_LIMITED',
      message: 'Too many sign-up attempts for this e-mail. Try again in 15 minutes.',
    });
  });
});
