import { startOidcProvider, type RunningOidcProvider } from '@boatshop/dev-services';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createResetToken } from '../../../src/features/auth/password-reset.js';
import { buildTestApp, resetDatabase, type TestApp } from '../../helpers/build-test-app.js';
import { GOOD_PASSWORD, registration, ShopVisitor } from './browser.js';

const PUBLIC_URL = 'http://shop.test';
const REDIRECT_URI = `${PUBLIC_URL}/api/auth/oidc/callback`;

/** The popup's side at the provider: a cookie jar for the provider's host and its account chooser. */
class ProviderBrowser {
  readonly #cookies = new Map<string, string>();

  async fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const response = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: { ...(init.headers as Record<string, string>), cookie: [...this.#cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    for (const header of response.headers.getSetCookie()) {
      const [pair = ''] = header.split(';');
      const separator = pair.indexOf('=');
      const value = pair.slice(separator + 1).trim();
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(header)) this.#cookies.delete(pair.slice(0, separator).trim());
      else this.#cookies.set(pair.slice(0, separator).trim(), value);
    }
    return response;
  }

  /** Follows redirects (and oidc-provider's self-submitting forms) until the shop's callback URL. */
  async followToShop(start: string, pickAccount: string): Promise<string> {
    let url = start;
    let response = await this.fetch(url);
    for (let step = 0; step < 20; step += 1) {
      if (response.status >= 300 && response.status < 400) {
        url = new URL(response.headers.get('location') ?? '', url).href;
        if (url.startsWith(REDIRECT_URI)) return url;
        response = await this.fetch(url);
        continue;
      }
      const html = await response.text();
      const chooser = /<form method="post" action="([^"]+\/login)"/.exec(html);
      const autoForm = /<form method="post" action="([^"]+)"/.exec(html);
      const action = chooser?.[1] ?? (html.includes('document.forms[0].submit()') ? autoForm?.[1] : undefined);
      if (!action) throw new Error(`stuck at ${url}: ${html.slice(0, 300)}`);
      const body = new URLSearchParams(chooser ? { account: pickAccount } : {});
      if (!chooser)
        for (const [, name = '', value = ''] of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"\/>/g))
          body.append(name, value);
      url = new URL(action, url).href;
      response = await this.fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: body.toString(),
      });
    }
    throw new Error('too many steps');
  }
}

function popupMessage(html: string): unknown {
  const match = /postMessage\((.+?), ("[^"]+")\)/.exec(html);
  expect(match, html).not.toBeNull();
  return { message: JSON.parse(match![1]!), targetOrigin: JSON.parse(match![2]!) };
}

describe('social sign-in through OpenID Connect', () => {
  let provider: RunningOidcProvider;
  let app: TestApp;

  beforeAll(async () => {
    provider = await startOidcProvider({ port: 0, clientId: 'shop-test', clientSecret: 'shop-test-secret', redirectUris: [REDIRECT_URI] });
    app = await buildTestApp({
      publicUrl: PUBLIC_URL,
      oidc: { issuer: provider.url, clientId: 'shop-test', clientSecret: 'shop-test-secret', redirectUri: REDIRECT_URI },
    });
  });
  beforeEach(() => resetDatabase(app));
  afterAll(async () => {
    await app?.close();
    await provider?.close();
  });

  /** The whole popup: /start, the chooser at the provider, then /callback with the flow cookie. */
  async function signInWithProvider(visitor: ShopVisitor, account: string) {
    const start = await visitor.get('/api/auth/oidc/start');
    expect(start.statusCode).toBe(302);
    const callbackUrl = await new ProviderBrowser().followToShop(start.headers.location as string, account);
    return visitor.get(callbackUrl.slice(PUBLIC_URL.length));
  }

  it('starts an authorization-code flow with PKCE, state, nonce and the account chooser, keeping them in a signed cookie', async () => {
    const visitor = await ShopVisitor.arrive(app);
    const start = await visitor.get('/api/auth/oidc/start');

    const location = new URL(start.headers.location as string);
    expect(location.origin).toBe(provider.url);
    expect(Object.fromEntries(location.searchParams)).toMatchObject({
      client_id: 'shop-test',
      response_type: 'code',
      redirect_uri: REDIRECT_URI,
      scope: 'openid email profile',
      code_challenge_method: 'S256',
      prompt: 'select_account',
      state: expect.any(String),
      nonce: expect.any(String),
      code_challenge: expect.any(String),
    });
    const flowCookie = start.cookies.find((cookie) => cookie.name === 'oidc_flow');
    expect(flowCookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/api/auth/oidc', maxAge: 600 });
  });

  it('creates the user on first sign-in with the provider name and e-mail and role user, then tells the opener', async () => {
    const visitor = await ShopVisitor.arrive(app);
    const callback = await signInWithProvider(visitor, 'grace-sailor');

    expect(callback.statusCode).toBe(200);
    expect(callback.headers['content-type']).toMatch(/^text\/html/);
    expect(callback.headers['content-security-policy']).toMatch(/^default-src 'none'; script-src 'sha256-/);
    expect(popupMessage(callback.body)).toEqual({ message: { type: 'boatshop:oidc', ok: true }, targetOrigin: PUBLIC_URL });
    expect(visitor.cookies.oidc_flow).toBeUndefined();

    const user = await visitor.sessionUser();
    expect(user).toMatchObject({
      displayName: 'Grace Sailor',
      email: 'grace.sailor@example.com',
      userRoles: ['user'],
      emailVerified: true,
    });

    // The next sign-in of the same person finds the same account.
    const again = await ShopVisitor.arrive(app);
    await signInWithProvider(again, 'grace-sailor');
    expect((await again.sessionUser())?.id).toBe(user?.id);
    expect(await app.db.selectFrom('users').select('id').execute()).toHaveLength(1);
  });

  it('signs into the existing account whose e-mail the shop and the provider have both verified, and the password keeps working', async () => {
    const registered = await ShopVisitor.arrive(app);
    const created = await registered.post('/api/auth/register', registration({ displayName: 'Sam S.', email: 'Sam.Skipper@example.com' }));
    const { user } = created.json();
    await app.db.updateTable('users').set({ email_verified: true }).where('id', '=', user.id).execute();

    const visitor = await ShopVisitor.arrive(app);
    await signInWithProvider(visitor, 'sam-skipper');
    expect(await visitor.sessionUser()).toEqual({ ...user, emailVerified: true });
    const links = await app.db.selectFrom('external_identities').selectAll().execute();
    expect(links).toEqual([
      expect.objectContaining({ provider: provider.url, subject: 'sam-skipper', user_id: user.id, email_verified: true }),
    ]);

    // The password keeps working alongside, and so does the session that registered.
    const withPassword = await (
      await ShopVisitor.arrive(app)
    ).post('/api/auth/login', { email: 'sam.skipper@example.com', password: GOOD_PASSWORD });
    expect(withPassword.statusCode).toBe(200);
    expect(await registered.sessionUser()).not.toBeNull();
  });

  it("hands an account nobody verified to the provider's owner of the e-mail, shutting out whoever registered it", async () => {
    // A stranger pre-creates the victim's account with a password of their own.
    const stranger = await ShopVisitor.arrive(app);
    const created = await stranger.post('/api/auth/register', registration({ displayName: 'Not Sam', email: 'sam.skipper@example.com' }));
    expect(created.statusCode).toBe(201);
    const accountId = created.json().user.id;
    expect(await stranger.sessionUser()).toMatchObject({ id: accountId, emailVerified: false });

    const owner = await ShopVisitor.arrive(app);
    const callback = await signInWithProvider(owner, 'sam-skipper');
    expect(popupMessage(callback.body)).toMatchObject({ message: { ok: true } });
    expect(await owner.sessionUser()).toMatchObject({
      id: accountId,
      email: 'sam.skipper@example.com',
      displayName: 'Sam Skipper',
      emailVerified: true,
    });

    // The stranger's session and password are gone.
    expect(await stranger.sessionUser()).toBeNull();
    const withOldPassword = await (
      await ShopVisitor.arrive(app)
    ).post('/api/auth/login', { email: 'sam.skipper@example.com', password: GOOD_PASSWORD });
    expect(withOldPassword.statusCode).toBe(401);
    const row = await app.db
      .selectFrom('users')
      .select(['password_hash', 'email_verified'])
      .where('id', '=', accountId)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ password_hash: null, email_verified: true });
    const live = await app.db
      .selectFrom('sessions')
      .select('id')
      .where('user_id', '=', accountId)
      .where('revoked_at', 'is', null)
      .execute();
    expect(live).toHaveLength(1);
    const links = await app.db.selectFrom('external_identities').selectAll().execute();
    expect(links).toEqual([expect.objectContaining({ subject: 'sam-skipper', user_id: accountId, email_verified: true })]);
  });

  it('refuses to link an existing account to an e-mail the provider has not verified', async () => {
    const registered = await ShopVisitor.arrive(app);
    await registered.post('/api/auth/register', registration({ email: 'una.unverified@example.com' }));

    const visitor = await ShopVisitor.arrive(app);
    const callback = await signInWithProvider(visitor, 'una-unverified');
    expect(callback.statusCode).toBe(400);
    expect(popupMessage(callback.body)).toMatchObject({ message: { ok: false } });
    expect(await visitor.sessionUser()).toBeNull();
    expect(await registered.sessionUser()).not.toBeNull();
    expect(await app.db.selectFrom('external_identities').selectAll().execute()).toEqual([]);
  });

  it('drops, on a password reset, the provider links that were made on an unverified e-mail', async () => {
    const visitor = await ShopVisitor.arrive(app);
    await signInWithProvider(visitor, 'una-unverified');
    const user = await visitor.sessionUser();
    expect(user).toMatchObject({ email: 'una.unverified@example.com', emailVerified: false });
    // A second provider that did verify the address when it was linked: that link stays.
    await app.db
      .insertInto('external_identities')
      .values({ provider: 'https://other-provider.example', subject: 'una', user_id: user!.id, email_verified: true })
      .execute();

    const token = await createResetToken(app.db, user!.id);
    const reset = await (
      await ShopVisitor.arrive(app)
    ).post('/api/auth/password-reset/confirm', {
      token,
      password: GOOD_PASSWORD,
      confirmPassword: GOOD_PASSWORD,
    });
    expect(reset.statusCode).toBe(204);

    const links = await app.db.selectFrom('external_identities').select(['provider', 'email_verified']).execute();
    expect(links).toEqual([{ provider: 'https://other-provider.example', email_verified: true }]);
    // The reset link proved the mailbox.
    const row = await app.db.selectFrom('users').select('email_verified').where('id', '=', user!.id).executeTakeFirstOrThrow();
    expect(row.email_verified).toBe(true);
    // The provider identity whose link went is a stranger now: signing in with it makes no new account for the address.
    const again = await signInWithProvider(await ShopVisitor.arrive(app), 'una-unverified');
    expect(again.statusCode).toBe(400);
  });

  it('refuses a callback without the flow cookie, and one whose state belongs to another flow', async () => {
    const visitor = await ShopVisitor.arrive(app);
    const start = await visitor.get('/api/auth/oidc/start');
    const callbackUrl = await new ProviderBrowser().followToShop(start.headers.location as string, 'grace-sailor');

    const stranger = await ShopVisitor.arrive(app);
    const noCookie = await stranger.get(callbackUrl.slice(PUBLIC_URL.length));
    expect(noCookie.statusCode).toBe(400);
    expect(popupMessage(noCookie.body)).toMatchObject({ message: { type: 'boatshop:oidc', ok: false } });

    // A flow cookie from a different start: its state and PKCE verifier do not fit this code.
    await stranger.get('/api/auth/oidc/start');
    const wrongFlow = await stranger.get(callbackUrl.slice(PUBLIC_URL.length));
    expect(wrongFlow.statusCode).toBe(400);
    expect(await stranger.sessionUser()).toBeNull();
    expect(await app.db.selectFrom('users').select('id').execute()).toEqual([]);
  });

  it('refuses a tampered flow cookie', async () => {
    const visitor = await ShopVisitor.arrive(app);
    const start = await visitor.get('/api/auth/oidc/start');
    const callbackUrl = await new ProviderBrowser().followToShop(start.headers.location as string, 'grace-sailor');
    const [value = '', signature = ''] = visitor.cookies.oidc_flow!.split(/\.(?=[^.]+$)/);
    const flow = JSON.parse(value);
    visitor.cookies.oidc_flow = `${JSON.stringify({ ...flow, expiresAt: flow.expiresAt + 3_600_000 })}.${signature}`;

    const response = await visitor.get(callbackUrl.slice(PUBLIC_URL.length));
    expect(response.statusCode).toBe(400);
    expect(await visitor.sessionUser()).toBeNull();
  });

  it('reports a cancelled account chooser to the opener without signing in', async () => {
    const visitor = await ShopVisitor.arrive(app);
    await visitor.get('/api/auth/oidc/start');
    const response = await visitor.get('/api/auth/oidc/callback?error=access_denied&state=whatever');
    expect(response.statusCode).toBe(400);
    expect(popupMessage(response.body)).toEqual({
      message: { type: 'boatshop:oidc', ok: false, message: 'Sign-in was cancelled or could not be completed.' },
      targetOrigin: PUBLIC_URL,
    });
  });
});

describe('social sign-in without a provider', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await buildTestApp({ oidc: null });
  });
  afterAll(() => app?.close());

  it('tells the opener that it is not available', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/auth/oidc/start' });
    expect(response.statusCode).toBe(503);
    expect(response.body).toContain('Social sign-in is not available.');
  });
});
