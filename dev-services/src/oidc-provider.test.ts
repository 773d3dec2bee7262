import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOidcProvider, type RunningOidcProvider } from './oidc-provider.js';

const REDIRECT_URI = 'http://127.0.0.1:9/api/auth/oidc/callback';
const CLIENT_ID = 'boatshop-test';
const CLIENT_SECRET = 'boatshop-test-secret';

/** Enough of a browser's cookie jar for one host: oidc-provider ties an interaction to its cookies. */
class CookieJar {
  readonly #cookies = new Map<string, string>();

  store(response: Response) {
    for (const header of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = header.split(';');
      const separator = pair.indexOf('=');
      const name = pair.slice(0, separator).trim();
      const value = pair.slice(separator + 1).trim();
      const expired =
        attributes.some((attribute) => /^\s*max-age=0\s*$/i.test(attribute)) ||
        attributes.some((attribute) => /^\s*expires=Thu, 01 Jan 1970/i.test(attribute));
      if (expired || value === '') this.#cookies.delete(name);
      else this.#cookies.set(name, value);
    }
  }

  header(): string {
    return [...this.#cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

async function browse(jar: CookieJar, url: string, init: RequestInit = {}): Promise<Response> {
  const response = await fetch(url, {
    ...init,
    redirect: 'manual',
    headers: { ...(init.headers as Record<string, string>), cookie: jar.header() },
  });
  jar.store(response);
  return response;
}

/** oidc-provider's self-submitting form (used to end the old session when the account changes). */
async function autoSubmittedForm(response: Response): Promise<{ action: string; body: URLSearchParams } | undefined> {
  if (response.status !== 200 || !response.headers.get('content-type')?.startsWith('text/html')) return undefined;
  const html = await response.clone().text();
  if (!html.includes('document.forms[0].submit()')) return undefined;
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1] ?? '';
  const body = new URLSearchParams();
  for (const [, name = '', value = ''] of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"\/>/g)) {
    body.append(name, value);
  }
  return { action, body };
}

/** Follows redirects and self-submitting forms like a browser until a page or the client's redirect URI. */
async function follow(jar: CookieJar, response: Response, base: string): Promise<{ url: string; response: Response }> {
  let current = response;
  let url = base;
  for (;;) {
    if (current.status >= 300 && current.status < 400) {
      url = new URL(current.headers.get('location') ?? '', url).href;
      if (url.startsWith(REDIRECT_URI)) return { url, response: current };
      current = await browse(jar, url);
      continue;
    }
    const form = await autoSubmittedForm(current);
    if (!form) return { url, response: current };
    url = new URL(form.action, url).href;
    current = await browse(jar, url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form.body.toString(),
    });
  }
}

describe('local OpenID provider', () => {
  let provider: RunningOidcProvider;
  let config: client.Configuration;

  beforeAll(async () => {
    provider = await startOidcProvider({
      port: 0,
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      redirectUris: [REDIRECT_URI],
    });
    config = await client.discovery(new URL(provider.url), CLIENT_ID, CLIENT_SECRET, undefined, {
      execute: [client.allowInsecureRequests],
    });
  });

  afterAll(() => provider.close());

  async function startSignIn(extra: Record<string, string> = {}) {
    const codeVerifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const authorizationUrl = client.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT_URI,
      scope: 'openid email profile',
      code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state,
      ...extra,
    });
    return { codeVerifier, state, authorizationUrl: authorizationUrl.href };
  }

  async function chooseAccount(jar: CookieJar, chooser: { url: string; response: Response }, accountId: string) {
    const html = await chooser.response.text();
    const action = /<form method="post" action="([^"]+\/login)"/.exec(html)?.[1];
    expect(action).toBeDefined();
    const submitted = await browse(jar, new URL(action ?? '', chooser.url).href, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ account: accountId }).toString(),
    });
    return follow(jar, submitted, chooser.url);
  }

  it('publishes discovery metadata for its http issuer with S256 PKCE', () => {
    const metadata = config.serverMetadata();
    expect(metadata.issuer).toBe(provider.url);
    expect(metadata.code_challenge_methods_supported).toEqual(['S256']);
    expect(metadata.scopes_supported).toEqual(expect.arrayContaining(['openid', 'email', 'profile']));
  });

  it('signs in through the account chooser with the authorization code and PKCE, without a consent page', async () => {
    const jar = new CookieJar();
    const { codeVerifier, state, authorizationUrl } = await startSignIn({ prompt: 'select_account' });

    const chooser = await follow(jar, await browse(jar, authorizationUrl), authorizationUrl);
    expect(chooser.response.status).toBe(200);
    const page = await chooser.response.clone().text();
    expect(page).toContain('<h1>Choose an account</h1>');
    expect(page).toContain('Grace Sailor');
    expect(page).toContain('sam.skipper@example.com');

    const callback = await chooseAccount(jar, chooser, 'grace-sailor');
    expect(callback.url.startsWith(REDIRECT_URI)).toBe(true);

    const tokens = await client.authorizationCodeGrant(config, new URL(callback.url), {
      pkceCodeVerifier: codeVerifier,
      expectedState: state,
    });
    const claims = tokens.claims();
    expect(claims).toMatchObject({
      sub: 'grace-sailor',
      email: 'grace.sailor@example.com',
      email_verified: true,
      name: 'Grace Sailor',
    });

    const userinfo = await client.fetchUserInfo(config, tokens.access_token, 'grace-sailor');
    expect(userinfo).toMatchObject({
      sub: 'grace-sailor',
      email: 'grace.sailor@example.com',
      email_verified: true,
      name: 'Grace Sailor',
    });
  });

  it('shows the chooser again for prompt=select_account when a session exists, and can switch account', async () => {
    const jar = new CookieJar();
    const first = await startSignIn({ prompt: 'select_account' });
    const firstChooser = await follow(jar, await browse(jar, first.authorizationUrl), first.authorizationUrl);
    await chooseAccount(jar, firstChooser, 'grace-sailor');

    const second = await startSignIn({ prompt: 'select_account' });
    const secondChooser = await follow(jar, await browse(jar, second.authorizationUrl), second.authorizationUrl);
    expect(await secondChooser.response.clone().text()).toContain('Choose an account');
    const callback = await chooseAccount(jar, secondChooser, 'sam-skipper');

    const tokens = await client.authorizationCodeGrant(config, new URL(callback.url), {
      pkceCodeVerifier: second.codeVerifier,
      expectedState: second.state,
    });
    expect(tokens.claims()).toMatchObject({ sub: 'sam-skipper', email: 'sam.skipper@example.com', name: 'Sam Skipper' });
  });

  it('reuses the session without any page when no prompt is requested', async () => {
    const jar = new CookieJar();
    const first = await startSignIn({ prompt: 'select_account' });
    const chooser = await follow(jar, await browse(jar, first.authorizationUrl), first.authorizationUrl);
    await chooseAccount(jar, chooser, 'sam-skipper');

    const second = await startSignIn();
    const callback = await follow(jar, await browse(jar, second.authorizationUrl), second.authorizationUrl);
    expect(callback.url.startsWith(REDIRECT_URI)).toBe(true);
    const tokens = await client.authorizationCodeGrant(config, new URL(callback.url), {
      pkceCodeVerifier: second.codeVerifier,
      expectedState: second.state,
    });
    expect(tokens.claims()?.sub).toBe('sam-skipper');
  });

  it('returns access_denied to the client when the person cancels', async () => {
    const jar = new CookieJar();
    const { state, authorizationUrl } = await startSignIn({ prompt: 'select_account' });
    const chooser = await follow(jar, await browse(jar, authorizationUrl), authorizationUrl);
    const action = /<form method="post" action="([^"]+\/abort)"/.exec(await chooser.response.text())?.[1];
    const cancelled = await follow(jar, await browse(jar, new URL(action ?? '', chooser.url).href, { method: 'POST' }), chooser.url);

    const callback = new URL(cancelled.url);
    expect(callback.searchParams.get('error')).toBe('access_denied');
    expect(callback.searchParams.get('state')).toBe(state);
  });

  it('announces no logout endpoint, as Google does not', () => {
    expect(config.serverMetadata().end_session_endpoint).toBeUndefined();
  });

  it('explains an unregistered redirect URI on its own error page instead of redirecting', async () => {
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: 'http://127.0.0.1:9/elsewhere',
      scope: 'openid',
      code_challenge: await client.calculatePKCECodeChallenge(client.randomPKCECodeVerifier()),
      code_challenge_method: 'S256',
    });
    const response = await fetch(url, { redirect: 'manual' });
    const page = await response.text();
    expect(response.status).toBe(400);
    expect(page).toContain('<h1>Sign-in problem</h1>');
    expect(page).toContain('redirect_uri');
    expect(page).not.toContain('https://');
  });

  it('refuses an authorization request without PKCE', async () => {
    const url = client.buildAuthorizationUrl(config, { redirect_uri: REDIRECT_URI, scope: 'openid', state: 'x' });
    const response = await fetch(url, { redirect: 'manual' });
    const location = new URL(response.headers.get('location') ?? '');
    expect(location.searchParams.get('error')).toBe('invalid_request');
    expect(location.searchParams.get('error_description')).toMatch(/PKCE/);
  });

  it('refuses the token request of a client with a wrong secret', async () => {
    const wrongSecret = await client.discovery(new URL(provider.url), CLIENT_ID, 'not-the-secret', undefined, {
      execute: [client.allowInsecureRequests],
    });
    const jar = new CookieJar();
    const { codeVerifier, state, authorizationUrl } = await startSignIn({ prompt: 'select_account' });
    const chooser = await follow(jar, await browse(jar, authorizationUrl), authorizationUrl);
    const callback = await chooseAccount(jar, chooser, 'grace-sailor');

    await expect(
      client.authorizationCodeGrant(wrongSecret, new URL(callback.url), {
        pkceCodeVerifier: codeVerifier,
        expectedState: state,
      }),
    ).rejects.toMatchObject({ error: 'invalid_client' });
  });
});
