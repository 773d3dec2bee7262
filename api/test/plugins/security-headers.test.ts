import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/build-test-app.js';

describe('security headers of the API', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await buildTestApp();
  });
  afterAll(() => app?.close());

  it('every answer, found or not, allows nothing to load and no framing', async () => {
    for (const url of ['/api/health', '/api/products', '/api/nowhere']) {
      const { headers } = await app.inject({ method: 'GET', url });
      expect(headers['content-security-policy']).toBe("default-src 'none';base-uri 'none';form-action 'none';frame-ancestors 'none'");
      expect(headers['x-content-type-options']).toBe('nosniff');
      expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
      expect(headers['x-frame-options']).toBe('DENY');
      // Plain http here: HSTS only over https.
      expect(headers['strict-transport-security']).toBeUndefined();
    }
  });

  it('sends HSTS when a trusted proxy says the request came over https', async () => {
    const { headers } = await app.inject({ method: 'GET', url: '/api/health', headers: { 'x-forwarded-proto': 'https' } });
    expect(headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
  });

  it('a picture (SVG) can run and load nothing when opened on its own', async () => {
    const { statusCode, headers } = await app.inject({ method: 'GET', url: '/api/images/aldren-22-daysailer.svg' });
    expect(statusCode).toBe(200);
    expect(headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(headers['content-security-policy']).toBe("default-src 'none'; style-src 'unsafe-inline'; sandbox");
    expect(headers['x-content-type-options']).toBe('nosniff');
  });

  it('the OIDC popup page keeps its own hash-based policy', async () => {
    const { headers } = await app.inject({ method: 'GET', url: '/api/auth/oidc/callback?state=x&code=y' });
    expect(headers['content-security-policy']).toMatch(/^default-src 'none'; script-src 'sha256-/);
    expect(headers['cross-origin-opener-policy']).toBeUndefined();
  });

  it('the OpenAPI page is served outside production', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/docs/' });
    expect(response.statusCode).toBe(200);
  });
});

describe('the OpenAPI page in production', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await buildTestApp({ isProduction: true, nodeEnv: 'production' });
  });
  afterAll(() => app?.close());

  it('is not served', async () => {
    for (const url of ['/api/docs', '/api/docs/', '/api/docs/json', '/api/docs/static/index.html']) {
      expect((await app.inject({ method: 'GET', url })).statusCode).toBe(404);
    }
  });
});
