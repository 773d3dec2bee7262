import fastifyHelmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import { portOf } from './ports';
import { remotesManifest } from './remotes';

type Env = Record<string, string | undefined>;

/** Stripe.js and what it needs (https://docs.stripe.com/security/guide#content-security-policy). */
export const STRIPE_SCRIPT_ORIGINS = ['https://js.stripe.com'] as const;
export const STRIPE_FRAME_ORIGINS = ['https://js.stripe.com', 'https://hooks.stripe.com'] as const;
export const STRIPE_CONNECT_ORIGINS = ['https://api.stripe.com'] as const;

export const HSTS_HEADER = 'max-age=31536000; includeSubDomains';

/** How long the remotes' origins read from the manifest are reused before it is read again. */
const POLICY_TTL_MS = 5_000;

export type Directives = Record<string, string[]>;

export interface PolicyInputs {
  /** Origins the shell loads remotes from (scripts, styles, their manifests); none for a remote. */
  remoteOrigins: string[];
  /** The local Stripe stand-in as the browser reaches it (development only), or null. */
  stripeStandInOrigin: string | null;
}

/**
 * The page policy of a front end: its own origin, the remotes' origins, Stripe's, and nothing
 * else. No inline script anywhere (data goes in `<script type="application/json">` blocks, which
 * never run); no inline style either: React sets `style` props through the CSSOM, which CSP does
 * not govern, the stylesheets are files, and the admin's TipTap editor is told not to inject its
 * `<style>` element (mf-admin). Stripe Elements draws inside its own frames.
 */
export function contentSecurityPolicy({ remoteOrigins, stripeStandInOrigin }: PolicyInputs): Directives {
  const remotes = [...new Set(remoteOrigins)];
  const standIn = stripeStandInOrigin ? [stripeStandInOrigin] : [];
  return {
    'default-src': ["'self'"],
    'script-src': ["'self'", ...remotes, ...STRIPE_SCRIPT_ORIGINS],
    'style-src': ["'self'", ...remotes],
    'img-src': ["'self'", 'data:', ...remotes],
    'font-src': ["'self'", ...remotes],
    'connect-src': ["'self'", ...remotes, ...STRIPE_CONNECT_ORIGINS, ...standIn],
    'frame-src': [...STRIPE_FRAME_ORIGINS],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
  };
}

export function serializePolicy(directives: Directives): string {
  return Object.entries(directives)
    .map(([name, values]) => `${name} ${values.join(' ')}`)
    .join('; ');
}

/** Origins of the absolute URLs in the remotes manifest; relative ones are the shop's own. */
export function originsOfManifest(manifest: Record<string, string>): string[] {
  const origins = new Set<string>();
  for (const url of Object.values(manifest)) {
    try {
      origins.add(new URL(url).origin);
    } catch {
      // "/remotes/mf-catalog/mf-manifest.json": same origin, already 'self'.
    }
  }
  return [...origins];
}

/**
 * CSP_EXTRA_ORIGINS: origins a page may load remote code from besides those in the manifest (a
 * remote being moved, the e2e suite's own remote instances). Comma-separated; each must be an
 * http(s) origin, or the server refuses to start.
 */
export function extraOrigins(env: Env): string[] {
  return (env.CSP_EXTRA_ORIGINS ?? '')
    .split(',')
    .map((value) => value.trim())
    .filter(Boolean)
    .map((value) => {
      let url: URL | null = null;
      try {
        url = new URL(value);
      } catch {
        // reported below
      }
      if (!url || !['http:', 'https:'].includes(url.protocol) || url.origin !== value.replace(/\/$/, '')) {
        throw new Error(`CSP_EXTRA_ORIGINS must list origins such as https://cdn.example, got "${value}"`);
      }
      return url.origin;
    });
}

/**
 * The stand-in the card form talks to outside production: the same origin the API reports as
 * `localApiBase` (STRIPE_BROWSER_API_BASE, else STRIPE_API_BASE, else 127.0.0.1:DEV_STRIPE_PORT).
 */
export function stripeStandInOrigin(env: Env): string | null {
  if (env.NODE_ENV === 'production') return null;
  const base = env.STRIPE_BROWSER_API_BASE || env.STRIPE_API_BASE || `http://127.0.0.1:${portOf('dev-stripe', env)}`;
  try {
    return new URL(base).origin;
  } catch {
    return null;
  }
}

export interface SecurityHeadersOptions {
  role: 'shell' | 'remote';
  env?: Env;
}

/**
 * Helmet on a front end's server. Paths under /api are the API's answers passing through the
 * shell's proxy: they keep the API's own headers (its allow-nothing policy, the OIDC popup's
 * hash-based one, and no opener policy that would cut the popup from the shop window).
 */
export async function registerSecurityHeaders(app: FastifyInstance, options: SecurityHeadersOptions): Promise<void> {
  const env = options.env ?? process.env;
  const extra = extraOrigins(env);
  await app.register(fastifyHelmet, {
    global: false,
    contentSecurityPolicy: false,
    strictTransportSecurity: false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    frameguard: { action: 'deny' },
    // The OIDC sign-in popup must still reach window.opener.
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
    // A remote's chunks are loaded by the shell's page, from another origin.
    crossOriginResourcePolicy: { policy: options.role === 'remote' ? 'cross-origin' : 'same-origin' },
  });

  let cached: { policy: string; until: number } | null = null;
  const policy = async (): Promise<string> => {
    if (cached && cached.until > Date.now()) return cached.policy;
    // A remote loads no other remote; the shell reads the same manifest it serves at /remotes.json.
    const remoteOrigins = [...(options.role === 'shell' ? originsOfManifest(await remotesManifest(env)) : []), ...extra];
    const value = serializePolicy(contentSecurityPolicy({ remoteOrigins, stripeStandInOrigin: stripeStandInOrigin(env) }));
    cached = { policy: value, until: Date.now() + POLICY_TTL_MS };
    return value;
  };

  app.addHook('onRequest', async (request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    if (options.role === 'shell' && (path === '/api' || path.startsWith('/api/'))) return;
    void reply.helmet();
    let value: string;
    try {
      value = await policy();
    } catch (error) {
      // An unreadable manifest breaks /remotes.json already (a logged 500); the page then gets
      // a policy without remotes rather than none at all.
      request.log.error(error, 'cannot read the remotes manifest for the content security policy');
      value = serializePolicy(contentSecurityPolicy({ remoteOrigins: extra, stripeStandInOrigin: stripeStandInOrigin(env) }));
    }
    reply.header('content-security-policy', value);
    if (request.protocol === 'https') reply.header('strict-transport-security', HSTS_HEADER);
  });
}
