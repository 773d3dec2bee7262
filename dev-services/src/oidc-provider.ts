import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import Provider, { interactionPolicy, type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import { escapeHtml, htmlPage } from './html.js';
import { closeHttpServer, listen } from './listen.js';
import { DEV_ACCOUNTS, findDevAccount } from './oidc-accounts.js';
import { accountChooserPage } from './oidc-pages.js';
import { refuseProduction } from './production-guard.js';

export const OIDC_DEFAULTS = {
  port: 4010,
  clientId: 'boatshop-dev',
  clientSecret: 'boatshop-dev-secret',
  redirectUris: ['http://localhost:3000/api/auth/oidc/callback'],
} as const;

export interface OidcProviderOptions {
  /** 0 picks a free port. */
  port?: number;
  host?: string;
  /** Defaults to `http://localhost:<bound port>`. */
  issuer?: string;
  clientId?: string;
  clientSecret?: string;
  redirectUris?: readonly string[];
}

export interface RunningOidcProvider {
  /** The issuer, which is also the provider's base URL. */
  url: string;
  close(): Promise<void>;
}

const CLIENT_NAME = 'Boat shop';

/**
 * Google signs in through its account chooser when asked with `prompt=select_account`. oidc-provider
 * only knows `login` and `consent`, so the policy gains a requestable `select_account` prompt that the
 * chooser resolves; without it the provider rejects that prompt value as unsupported.
 */
function interactionPolicyWithAccountSelection() {
  const policy = interactionPolicy.base();
  policy.add(new interactionPolicy.Prompt({ name: 'select_account', requestable: true }), 0);
  return policy;
}

/**
 * The shop's client is first party, so, as Google does for its own apps, consent is implied: every
 * requested OpenID scope and claim is granted on the spot and the consent prompt never triggers.
 */
async function grantEverythingRequested(ctx: KoaContextWithOIDC) {
  const { oidc } = ctx;
  const client = oidc.client;
  const accountId = oidc.session?.accountId;
  if (!client || !accountId) return undefined;

  const grantId = (oidc.result?.consent as { grantId?: string } | undefined)?.grantId ?? oidc.session?.grantIdFor(client.clientId);
  const grant =
    (grantId ? await oidc.provider.Grant.find(grantId) : undefined) ?? new oidc.provider.Grant({ clientId: client.clientId, accountId });
  grant.addOIDCScope(oidc.requestParamOIDCScopes);
  grant.addOIDCClaims(oidc.requestParamClaims);
  await grant.save();
  return grant;
}

function buildConfiguration(options: Required<Omit<OidcProviderOptions, 'port' | 'host' | 'issuer'>>): Configuration {
  // Dev-only keys made at start: tokens from an earlier run are simply no longer valid.
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    clients: [
      {
        client_id: options.clientId,
        client_secret: options.clientSecret,
        client_name: CLIENT_NAME,
        redirect_uris: [...options.redirectUris],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        // openid-client 6 authenticates with client_secret_post when given a plain secret; Google accepts it too.
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    jwks: { keys: [privateKey.export({ format: 'jwk' }) as never] },
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['name'],
    },
    // Like Google, put the scope's claims in the ID token too, so the API can read them from either.
    conformIdTokenClaims: false,
    pkce: { required: () => true },
    // Google's lifetimes for tokens; sessions last until the dev services stop.
    ttl: {
      AccessToken: 3600,
      AuthorizationCode: 60,
      IdToken: 3600,
      Interaction: 3600,
      Grant: 14 * 24 * 3600,
      Session: 14 * 24 * 3600,
    },
    features: {
      devInteractions: { enabled: false },
      // Google's discovery announces no end_session_endpoint: the shop signs out on its own side only.
      rpInitiatedLogout: { enabled: false },
    },
    // Errors shown to the person (an unregistered redirect_uri, say) in the house page, with nothing fetched from the network.
    renderError: (ctx, out) => {
      ctx.type = 'html';
      ctx.body = errorPage(out.error_description ?? out.error);
    },
    interactions: {
      policy: interactionPolicyWithAccountSelection(),
      url: (_ctx, interaction) => `/interaction/${interaction.uid}`,
    },
    loadExistingGrant: grantEverythingRequested,
    findAccount: (_ctx, sub) => {
      const account = findDevAccount(sub);
      if (!account) return undefined;
      return {
        accountId: account.id,
        claims: () => ({
          sub: account.id,
          email: account.email,
          email_verified: account.emailVerified,
          name: account.name,
        }),
      };
    },
  };
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

function sendHtml(res: ServerResponse, status: number, html: string) {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
  res.end(html);
}

function errorPage(message: string): string {
  return htmlPage(
    'Sign-in problem',
    `<h1>Sign-in problem</h1><p>${escapeHtml(message)}</p>
<p class="note">Start the sign-in again from the shop.</p>`,
  );
}

/** The account chooser and its two actions; every other path belongs to oidc-provider. */
async function handleInteraction(provider: Provider, req: IncomingMessage, res: ServerResponse, uid: string, action: string | undefined) {
  const details = await provider.interactionDetails(req, res);
  if (details.uid !== uid) {
    sendHtml(res, 400, errorPage('This sign-in page belongs to another sign-in attempt.'));
    return;
  }

  if (req.method === 'GET' && action === undefined) {
    sendHtml(res, 200, accountChooserPage({ uid, clientName: CLIENT_NAME, accounts: DEV_ACCOUNTS }));
    return;
  }

  if (req.method === 'POST' && action === 'login') {
    const account = findDevAccount((await readForm(req)).get('account') ?? '');
    if (!account) {
      sendHtml(res, 400, errorPage('Unknown account.'));
      return;
    }
    await provider.interactionFinished(
      req,
      res,
      { select_account: {}, login: { accountId: account.id } },
      { mergeWithLastSubmission: false },
    );
    return;
  }

  if (req.method === 'POST' && action === 'abort') {
    await provider.interactionFinished(
      req,
      res,
      { error: 'access_denied', error_description: 'End-User aborted interaction' },
      { mergeWithLastSubmission: false },
    );
    return;
  }

  sendHtml(res, 405, errorPage('Method not allowed.'));
}

export async function startOidcProvider(options: OidcProviderOptions = {}): Promise<RunningOidcProvider> {
  refuseProduction('The OpenID provider stand-in');
  const host = options.host ?? '127.0.0.1';
  let providerCallback: ((req: IncomingMessage, res: ServerResponse) => unknown) | undefined;
  let provider: Provider | undefined;

  const server = createServer((req, res) => {
    if (!provider || !providerCallback) {
      res.writeHead(503).end();
      return;
    }
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const interaction = /^\/interaction\/([^/]+)(?:\/(login|abort))?$/.exec(path);
    if (!interaction) {
      providerCallback(req, res);
      return;
    }
    handleInteraction(provider, req, res, decodeURIComponent(interaction[1] ?? ''), interaction[2]).catch((error: unknown) => {
      // interactionDetails throws when the interaction cookie is missing or expired.
      const message = error instanceof Error ? error.message : 'Unexpected error';
      if (!res.headersSent) sendHtml(res, 400, errorPage(message));
      else res.end();
    });
  });

  // The issuer must name the bound port, which is only known after listening when port is 0.
  const port = await listen(server, options.port ?? OIDC_DEFAULTS.port, host);
  const issuer = (options.issuer ?? `http://localhost:${port}`).replace(/\/$/, '');
  provider = new Provider(
    issuer,
    buildConfiguration({
      clientId: options.clientId ?? OIDC_DEFAULTS.clientId,
      clientSecret: options.clientSecret ?? OIDC_DEFAULTS.clientSecret,
      redirectUris: options.redirectUris ?? OIDC_DEFAULTS.redirectUris,
    }),
  );
  providerCallback = provider.callback();

  return {
    url: issuer,
    close: () => closeHttpServer(server),
  };
}
