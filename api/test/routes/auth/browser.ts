import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { cookieHeader, csrfCredentials } from '../../helpers/users.js';
import type { TestApp } from '../../helpers/build-test-app.js';

/**
 * One visitor of the shop driven through `app.inject`: keeps the cookies the API sets (session,
 * csrf, oidc_flow) and sends them back with the CSRF header, as the shop's pages do.
 */
export class ShopVisitor {
  readonly cookies: Record<string, string> = {};

  constructor(
    readonly app: TestApp,
    /** a distinct client IP per visitor, so per-IP limits of one test do not leak into the next */
    readonly ip = `10.0.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
  ) {}

  static async arrive(app: TestApp, ip?: string): Promise<ShopVisitor> {
    const visitor = new ShopVisitor(app, ip);
    Object.assign(visitor.cookies, (await csrfCredentials(app)).cookies);
    return visitor;
  }

  keep(response: LightMyRequestResponse): LightMyRequestResponse {
    for (const cookie of response.cookies) {
      const expired = cookie.maxAge === 0 || (cookie.expires !== undefined && cookie.expires.getTime() < Date.now());
      if (expired || cookie.value === '') delete this.cookies[cookie.name];
      else this.cookies[cookie.name] = cookie.value;
    }
    return response;
  }

  headers(): Record<string, string> {
    return {
      cookie: cookieHeader(this.cookies),
      'x-forwarded-for': this.ip,
      ...(this.cookies.csrf ? { 'x-csrf-token': this.cookies.csrf } : {}),
    };
  }

  async get(url: string): Promise<LightMyRequestResponse> {
    return this.keep(await this.app.inject({ method: 'GET', url, headers: this.headers() }));
  }

  async post(url: string, payload?: object): Promise<LightMyRequestResponse> {
    return this.keep(await this.app.inject({ method: 'POST', url, headers: this.headers(), ...(payload ? { payload } : {}) }));
  }

  /** Who the API thinks is signed in with this visitor's cookies. */
  async sessionUser(): Promise<{ id: string; displayName: string; email: string; userRoles: string[] } | null> {
    const response = await this.get('/api/auth/session');
    expect(response.statusCode).toBe(200);
    return response.json().user;
  }
}

export const GOOD_PASSWORD = 'mizzen-mast-at-dawn';

export function registration(overrides: Partial<Record<'displayName' | 'email' | 'password' | 'confirmPassword', string>> = {}) {
  const password = overrides.password ?? GOOD_PASSWORD;
  return {
    displayName: 'Sandy Shopper',
    email: 'sandy@example.com',
    password,
    confirmPassword: overrides.confirmPassword ?? password,
    ...overrides,
  };
}
