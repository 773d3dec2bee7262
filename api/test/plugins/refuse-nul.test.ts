import { describe, expect } from 'vitest';
import { containsNul } from '../../src/plugins/app/refuse-nul.js';
import { testWithApp } from '../support/fixtures.js';

const it = testWithApp({ config: { authRateLimitPerMinute: 0 } });

describe('a NUL byte anywhere in the request', () => {
  it('is a 400, not the 500 of a database that cannot store it', async ({ app, csrf: { headers } }) => {
    const login = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers,
      payload: { email: 'someone@example.test\u0000', password: 'a-long-enough-passphrase' },
    });
    expect(login.statusCode).toBe(400);
    expect(login.json().error).toMatchObject({ code: 'VALIDATION', message: expect.stringContaining('NUL') });

    const search = await app.inject({ method: 'GET', url: '/api/products', query: { q: 'sloop\u0000' } });
    expect(search.statusCode).toBe(400);
    const register = await app.inject({
      method: 'POST',
      url: '/api/auth/register',
      headers,
      payload: {
        displayName: 'Nul\u0000',
        email: 'nul@example.test',
        password: 'a-long-enough-passphrase',
        confirmPassword: 'a-long-enough-passphrase',
      },
    });
    expect(register.statusCode).toBe(400);
  });

  it('is found however deep the JSON, without overflowing the stack', () => {
    let deep: unknown = 'a\u0000';
    for (let i = 0; i < 200_000; i += 1) deep = [deep];
    expect(containsNul(deep)).toBe(true);
    expect(containsNul({ ['k\u0000']: 1 })).toBe(true);
    expect(containsNul({ a: ['fine', { b: 'also fine' }], n: 1, z: null })).toBe(false);
  });
});
