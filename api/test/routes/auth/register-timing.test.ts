import { describe, expect, vi } from 'vitest';

import { registration, ShopVisitor } from './browser.js';
import { it } from '../../support/fixtures.js';

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
  it('hashes the password just as a fresh registration does, then answers 409 EMAIL_TAKEN', async ({ app }) => {
    await (await ShopVisitor.arrive(app)).post('/api/auth/register', registration());
    hashCalls.count = 0;
    const response = await (await ShopVisitor.arrive(app)).post('/api/auth/register', registration());
    expect(response.statusCode).toBe(409);
    expect(response.json().error.code).toBe('EMAIL_TAKEN');
    expect(hashCalls.count).toBe(1);
  });
});
