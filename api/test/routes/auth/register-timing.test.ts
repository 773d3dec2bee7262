import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildTestApp, resetDatabase, type TestApp } from '../../helpers/build-test-app.js';
import { registration, ShopVisitor } from './browser.js';

const hashCalls = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../../src/features/users/password.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../../src/features/users/password.js')>();
  return {
    ...original,
    hashPassword: (password: string) => {
      hashCalls.count += 1;
      return original.hashPassword(password);
    },
  };
});

// The shop signs a new account in at once (SPEC: after registration the user goes to /), so a taken
// e-mail cannot get the same answer as a fresh one; it keeps its 409 message, but it must cost the
// same work (an argon2 hash), or the answer's speed alone tells a prober which addresses exist even
// where the message would not. The per-IP limit (perIp + the register throttle) bounds the probing.
describe('POST /api/auth/register with a taken e-mail', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await buildTestApp();
  });
  beforeEach(() => resetDatabase(app));
  afterAll(() => app?.close());

  it('hashes the password just as a fresh registration does, then answers 409 EMAIL_TAKEN', async () => {
    await (await ShopVisitor.arrive(app)).post('/api/auth/register', registration());
    hashCalls.count = 0;
    const response = await (await ShopVisitor.arrive(app)).post('/api/auth/register', registration());
    expect(response.statusCode).toBe(409);
    expect(response.json().error.code).toBe('EMAIL_TAKEN');
    expect(hashCalls.count).toBe(1);
  });
});
