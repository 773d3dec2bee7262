import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, resetDatabase, type TestApp } from '../../helpers/build-test-app.js';
import { createUserWithSession } from '../../helpers/users.js';
import { GOOD_PASSWORD, registration, ShopVisitor } from './browser.js';

const WRONG = { error: { code: 'WRONG_CREDENTIALS', message: 'Wrong e-mail or password.', details: ['Wrong e-mail or password.'] } };

// A test-only admin route: the role check is the real requireAdmin, reading roles from the users row.
function adminProbe(app: FastifyInstance) {
  app.get('/test/admin-only', { preHandler: app.requireAdmin }, async () => ({ ok: true }));
}

describe('sign-in, session and sign-out', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await buildTestApp({}, adminProbe);
  });
  beforeEach(() => resetDatabase(app));
  afterAll(() => app?.close());

  async function registeredVisitor(email = 'sandy@example.com') {
    await (await ShopVisitor.arrive(app)).post('/api/auth/register', registration({ email }));
    return ShopVisitor.arrive(app);
  }

  it('GET /api/auth/session answers null for a visitor and hands out a readable, strict csrf cookie', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/auth/session' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ user: null });
    const csrf = response.cookies.find((cookie) => cookie.name === 'csrf');
    expect(csrf).toMatchObject({ sameSite: 'Strict', path: '/' });
    expect(csrf?.httpOnly).toBeFalsy();
    expect(csrf?.value).toMatch(/^[A-Za-z0-9_-]{32,}$/);
  });

  it('signs in with the right password, ignoring the case of the e-mail', async () => {
    const visitor = await registeredVisitor();
    const response = await visitor.post('/api/auth/login', { email: 'SANDY@example.com', password: GOOD_PASSWORD });

    expect(response.statusCode).toBe(200);
    expect(response.json().user).toMatchObject({ displayName: 'Sandy Shopper', email: 'sandy@example.com', userRoles: ['user'] });
    expect(await visitor.sessionUser()).toEqual(response.json().user);
  });

  it('gives one answer for a wrong password, an unknown e-mail and a provider-only account', async () => {
    const visitor = await registeredVisitor();
    await createUserWithSession(app, { email: 'grace@example.com' });

    const wrongPassword = await visitor.post('/api/auth/login', { email: 'sandy@example.com', password: 'not-my-password' });
    const unknownEmail = await visitor.post('/api/auth/login', { email: 'nobody@example.com', password: GOOD_PASSWORD });
    const noPassword = await visitor.post('/api/auth/login', { email: 'grace@example.com', password: GOOD_PASSWORD });

    for (const response of [wrongPassword, unknownEmail, noPassword]) {
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual(WRONG);
      expect(response.cookies.find((cookie) => cookie.name === 'session')).toBeUndefined();
    }
    expect(await visitor.sessionUser()).toBeNull();
  });

  it('logs out by revoking the session row, so the old cookie no longer works anywhere', async () => {
    const visitor = await ShopVisitor.arrive(app);
    await visitor.post('/api/auth/register', registration());
    expect(await visitor.sessionUser()).not.toBeNull();
    const stolenCookies = { ...visitor.cookies };

    const response = await visitor.post('/api/auth/logout');
    expect(response.statusCode).toBe(204);
    expect(visitor.cookies.session).toBeUndefined();

    const replay = new ShopVisitor(app);
    Object.assign(replay.cookies, stolenCookies);
    expect(await replay.sessionUser()).toBeNull();
    const rows = await app.db.selectFrom('sessions').select('revoked_at').execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]?.revoked_at).toBeInstanceOf(Date);
  });

  it('answers 401 to a logout without a session', async () => {
    const response = await (await ShopVisitor.arrive(app)).post('/api/auth/logout');
    expect(response.statusCode).toBe(401);
  });

  it('replaces the session a visitor already had when signing in again', async () => {
    const visitor = await registeredVisitor();
    await visitor.post('/api/auth/login', { email: 'sandy@example.com', password: GOOD_PASSWORD });
    const first = { ...visitor.cookies };
    await visitor.post('/api/auth/login', { email: 'sandy@example.com', password: GOOD_PASSWORD });

    const old = new ShopVisitor(app);
    Object.assign(old.cookies, first);
    expect(await old.sessionUser()).toBeNull();
    expect(await visitor.sessionUser()).not.toBeNull();
  });

  it('locks an account for one address after 5 failed attempts from it in 15 minutes, even for the right password, and says so', async () => {
    await registeredVisitor();
    const stranger = await ShopVisitor.arrive(app, '203.0.113.66');
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const response = await stranger.post('/api/auth/login', { email: 'sandy@example.com', password: 'guess' });
      expect(response.statusCode).toBe(401);
    }
    const locked = await stranger.post('/api/auth/login', { email: 'Sandy@example.com', password: GOOD_PASSWORD });
    expect(locked.statusCode).toBe(429);
    expect(locked.json().error).toEqual({
      code: 'RATE_LIMITED',
      message: 'Too many failed sign-in attempts for this account. Try again in 15 minutes or reset your password.',
    });

    // The window is 15 minutes: once the failures are older, the right password works again.
    await sql`update auth_attempts set created_at = now() - interval '16 minutes'`.execute(app.db);
    const later = await stranger.post('/api/auth/login', { email: 'sandy@example.com', password: GOOD_PASSWORD });
    expect(later.statusCode).toBe(200);
  });

  it("does not lock the owner out from another address when a stranger used up the account's attempts", async () => {
    await registeredVisitor();
    // An address of its own: the per-minute limit of the other tests' addresses is still counting.
    const stranger = await ShopVisitor.arrive(app, '203.0.113.68');
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 6; attempt += 1) {
      statuses.push((await stranger.post('/api/auth/login', { email: 'sandy@example.com', password: 'guess' })).statusCode);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);

    const owner = await ShopVisitor.arrive(app, '198.51.100.7');
    const response = await owner.post('/api/auth/login', { email: 'sandy@example.com', password: GOOD_PASSWORD });
    expect(response.statusCode).toBe(200);
    expect((await owner.sessionUser())?.email).toBe('sandy@example.com');
  });

  it('forgets the failures from an address once the right password is given there', async () => {
    await registeredVisitor();
    const visitor = await ShopVisitor.arrive(app, '198.51.100.7');
    for (let attempt = 0; attempt < 4; attempt += 1) {
      await visitor.post('/api/auth/login', { email: 'sandy@example.com', password: 'guess' });
    }
    expect((await visitor.post('/api/auth/login', { email: 'sandy@example.com', password: GOOD_PASSWORD })).statusCode).toBe(200);
    for (let attempt = 0; attempt < 4; attempt += 1) {
      expect((await visitor.post('/api/auth/login', { email: 'sandy@example.com', password: 'guess' })).statusCode).toBe(401);
    }
  });

  it('locks unknown e-mails the same way, so the lock tells nothing about who is registered', async () => {
    const visitor = await ShopVisitor.arrive(app, '203.0.113.67');
    for (let attempt = 0; attempt < 5; attempt += 1) {
      await visitor.post('/api/auth/login', { email: 'nobody@example.com', password: 'guess' });
    }
    const locked = await visitor.post('/api/auth/login', { email: 'nobody@example.com', password: 'guess' });
    expect(locked.statusCode).toBe(429);
  });

  it('keeps no e-mail addresses in the throttling table', async () => {
    await (await ShopVisitor.arrive(app)).post('/api/auth/login', { email: 'nobody@example.com', password: 'guess' });
    const rows = await app.db.selectFrom('auth_attempts').select('account').execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]?.account).toMatch(/^[0-9a-f]{64}$/);
  });

  it('lets only users whose row holds the admin role through requireAdmin', async () => {
    const shopper = await registeredVisitor();
    await shopper.post('/api/auth/login', { email: 'sandy@example.com', password: GOOD_PASSWORD });
    expect((await shopper.get('/test/admin-only')).statusCode).toBe(403);

    await app.db
      .updateTable('users')
      .set({ roles: ['user', 'owner'] })
      .where('email', '=', 'sandy@example.com')
      .execute();
    expect((await shopper.get('/test/admin-only')).statusCode).toBe(200);
    // `admin` beside the staff role: shells released before staff roles know staff by it.
    expect((await shopper.sessionUser())?.userRoles).toEqual(['user', 'owner', 'admin']);
    expect((await (await ShopVisitor.arrive(app)).get('/test/admin-only')).statusCode).toBe(401);
  });
});

describe('per-IP rate limit on sign-in', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await buildTestApp({ authRateLimitPerMinute: 3 });
  });
  afterAll(() => app?.close());

  it('answers 429 once one address has made too many attempts in a minute, while others still get through', async () => {
    const attacker = await ShopVisitor.arrive(app, '203.0.113.7');
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 4; attempt += 1) {
      statuses.push((await attacker.post('/api/auth/login', { email: `user${attempt}@example.com`, password: 'guess' })).statusCode);
    }
    expect(statuses).toEqual([401, 401, 401, 429]);
    const limited = await attacker.post('/api/auth/login', { email: 'other@example.com', password: 'guess' });
    expect(limited.json().error.code).toBe('RATE_LIMITED');
    expect(limited.json().error.message).toMatch(/^Too many requests, try again in/);

    const someoneElse = await ShopVisitor.arrive(app, '198.51.100.20');
    expect((await someoneElse.post('/api/auth/login', { email: 'other@example.com', password: 'guess' })).statusCode).toBe(401);
  });
});

describe('sign-in throttling without the per-minute limit in front of it', () => {
  let app: TestApp;
  beforeAll(async () => {
    // The coarse per-minute limit would stop most of the burst before the route sees it; the
    // route's own counting must hold on its own.
    app = await buildTestApp({ authRateLimitPerMinute: 0 });
  });
  beforeEach(() => resetDatabase(app));
  afterAll(() => app?.close());

  it('checks at most 5 of 30 parallel wrong guesses at one account from one address', async () => {
    await (await ShopVisitor.arrive(app)).post('/api/auth/register', registration());
    const attacker = await ShopVisitor.arrive(app, '203.0.113.99');
    const responses = await Promise.all(
      Array.from({ length: 30 }, () => attacker.post('/api/auth/login', { email: 'sandy@example.com', password: 'guess' })),
    );
    const statuses = responses.map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 401)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(25);
    // Refused guesses were never checked and leave nothing behind: the lock does not grow with them.
    const { count } = await app.db
      .selectFrom('auth_attempts')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('action', '=', 'login')
      .executeTakeFirstOrThrow();
    expect(Number(count)).toBe(5);
  });

  // Two replicas need one database: on PGlite each app has its own.
  it.runIf(process.env.DATABASE_URL)('holds the limit across two replicas guessing in parallel', async () => {
    const replica = await buildTestApp({ authRateLimitPerMinute: 0 });
    try {
      await (await ShopVisitor.arrive(app)).post('/api/auth/register', registration());
      const onFirst = await ShopVisitor.arrive(app, '203.0.113.101');
      const onSecond = await ShopVisitor.arrive(replica, '203.0.113.101');
      const responses = await Promise.all(
        Array.from({ length: 30 }, (_, n) =>
          (n % 2 === 0 ? onFirst : onSecond).post('/api/auth/login', { email: 'sandy@example.com', password: 'guess' }),
        ),
      );
      expect(responses.filter((response) => response.statusCode === 401)).toHaveLength(5);
      // The owner, elsewhere, is not locked out by it.
      const owner = await ShopVisitor.arrive(replica, '198.51.100.8');
      expect((await owner.post('/api/auth/login', { email: 'sandy@example.com', password: GOOD_PASSWORD })).statusCode).toBe(200);
    } finally {
      await replica.close();
    }
  });

  it('limits one address to 20 failed sign-ins over all accounts in 15 minutes, and no other address', async () => {
    const sprayer = await ShopVisitor.arrive(app, '203.0.113.100');
    for (let account = 0; account < 20; account += 1) {
      const response = await sprayer.post('/api/auth/login', { email: `victim${account}@example.com`, password: 'password1' });
      expect(response.statusCode).toBe(401);
    }
    const blocked = await sprayer.post('/api/auth/login', { email: 'victim20@example.com', password: 'password1' });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().error.message).toBe('Too many failed sign-in attempts from your network. Try again in 15 minutes.');

    const elsewhere = await ShopVisitor.arrive(app, '198.51.100.30');
    expect((await elsewhere.post('/api/auth/login', { email: 'victim20@example.com', password: 'password1' })).statusCode).toBe(401);
  });
});
