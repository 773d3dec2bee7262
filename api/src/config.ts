import net from 'node:net';
import path from 'node:path';

// Every environment setting the API reads, parsed once into one typed object.
// Other features add their keys here rather than reading process.env themselves.

const API_ROOT = path.resolve(import.meta.dirname, '..');

/** Only for development and tests; production refuses to start without JWT_SECRET. */
export const DEV_JWT_SECRET = 'dev-only-insecure-jwt-secret-do-not-use-in-production';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export interface Config {
  nodeEnv: string;
  isProduction: boolean;
  host: string;
  port: number;
  /** PostgreSQL through `pg` when set, else the embedded PGlite. */
  databaseUrl: string | null;
  /** PGlite data folder; `memory://` keeps it in memory. */
  pgliteDir: string;
  jwtSecret: string;
  /** The shop's public origin (the shell), used for cookies and links. */
  publicUrl: string;
  sessionTtlSeconds: number;
  logLevel: LogLevel;
  /** Seed the demo catalogue and demo accounts when the products table is empty. */
  seedDemoData: boolean;
  /** Folder of the shipped demo pictures served at /api/images. */
  imagesDir: string;
  /** Social sign-in; null when production has no OIDC client configured (the button then reports it). */
  oidc: OidcConfig | null;
  /** Outgoing e-mail; null when production has no SMTP_URL (reset e-mails are then logged as failed). */
  mail: MailConfig | null;
  /** Per-IP requests per minute on sign-in, registration and password reset. */
  authRateLimitPerMinute: number;
  /** Card payments; null when production has no Stripe keys (payment routes answer 503). */
  payments: PaymentsConfig | null;
  /** The per-process read cache of the public catalogue (GET /api/products, /api/products/:id). */
  catalogCache: CatalogCacheConfig;
  /**
   * Addresses (or CIDR ranges) of the proxies whose X-Forwarded-For is believed: request.ip,
   * hence the per-IP rate limits and the logs, comes from it only when the connection is theirs.
   * Empty: no proxy is trusted and request.ip is the socket's address.
   */
  trustProxy: string[];
  orders: OrdersConfig;
  jobs: JobsConfig;
}

export interface OrdersConfig {
  /** A pending (unpaid) order expires after this long and its payment intent is cancelled. */
  pendingOrderTtlMinutes: number;
}

export interface JobsConfig {
  /** The job queue (pg-boss): e-mails from the outbox, order expiry, purges. Off: nothing runs. */
  enabled: boolean;
  pollingIntervalSeconds: number;
  /** Attempts after the first, with exponential backoff from retryDelaySeconds. */
  retryLimit: number;
  retryDelaySeconds: number;
  /** How often the outbox is checked for messages not yet handed to the queue. */
  outboxSweepMs: number;
}

export interface CatalogCacheConfig {
  /** Safety net on top of the change notifications; 0 turns the cache off. */
  ttlMs: number;
  /** Bound on cached answers (pages and products) per process. */
  maxEntries: number;
}

/** The local stand-in's test-mode keys, the same defaults dev-services uses. */
export const DEV_STRIPE = {
  secretKey: 'sk_test_dev',
  publishableKey: 'pk_test_dev',
  webhookSecret: 'whsec_dev_boatshop',
} as const;

export interface PaymentsConfig {
  /** 'stripe': api.stripe.com with real keys; 'local': the dev-services stand-in speaking Stripe's API. */
  provider: 'stripe' | 'local';
  secretKey: string;
  publishableKey: string;
  webhookSecret: string;
  /** 'local' only: the stand-in's origin as the API reaches it. */
  apiBase: string | null;
  /** 'local' only: the stand-in's origin as the browser reaches it. */
  browserApiBase: string | null;
}

/** The local OpenID provider's client (dev-services), used when not in production and nothing is configured. */
export const DEV_OIDC = {
  clientId: 'boatshop-dev',
  clientSecret: 'boatshop-dev-secret',
} as const;

export interface OidcConfig {
  /** Google's `https://accounts.google.com` in production; an http issuer is allowed only on localhost. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
}

export interface MailConfig {
  /** e.g. `smtp://127.0.0.1:4025` or `smtps://user:pass@smtp.example.com` */
  smtpUrl: string;
  from: string;
}

const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function readInt(env: NodeJS.ProcessEnv, key: string, fallback: number): number {
  const raw = env[key];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${key} must be a non-negative integer, got "${raw}"`);
  return value;
}

function readBool(env: NodeJS.ProcessEnv, key: string, fallback: boolean): boolean {
  const raw = env[key];
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'yes'].includes(raw.toLowerCase())) return true;
  if (['0', 'false', 'no'].includes(raw.toLowerCase())) return false;
  throw new Error(`${key} must be true or false, got "${raw}"`);
}

/** Where the shell's /api proxy and a local reverse proxy connect from. */
export const DEFAULT_TRUSTED_PROXIES = ['127.0.0.1', '::1'] as const;

// proxy-addr's names for ranges, which Fastify understands as well as addresses and CIDRs.
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

function readTrustedProxies(env: NodeJS.ProcessEnv): string[] {
  const raw = env.TRUST_PROXY?.trim();
  if (raw === undefined || raw === '') return [...DEFAULT_TRUSTED_PROXIES];
  if (raw.toLowerCase() === 'none') return [];
  const entries = raw.split(',').map((entry) => entry.trim()).filter(Boolean);
  for (const entry of entries) {
    const [address, prefix, ...rest] = entry.split('/');
    const validAddress = PROXY_RANGE_NAMES.includes(entry) || (rest.length === 0 && net.isIP(address!) !== 0);
    const validPrefix = prefix === undefined || /^\d{1,3}$/.test(prefix);
    // "true" or "*" would let any client pick its own IP, which is exactly what this setting prevents.
    if (!validAddress || !validPrefix) {
      throw new Error(`TRUST_PROXY must be "none" or comma-separated IP addresses or CIDR ranges, got "${entry}"`);
    }
  }
  return entries;
}

function loadPaymentsConfig(env: NodeJS.ProcessEnv, isProduction: boolean): PaymentsConfig | null {
  const apiBase = env.STRIPE_API_BASE?.replace(/\/$/, '') || null;
  // The stand-in's own key names no real account, so it never sends a shop to api.stripe.com.
  const realSecretKey = env.STRIPE_SECRET_KEY && env.STRIPE_SECRET_KEY !== DEV_STRIPE.secretKey ? env.STRIPE_SECRET_KEY : null;
  if (!apiBase && realSecretKey) {
    const publishableKey = env.STRIPE_PUBLISHABLE_KEY ?? '';
    const webhookSecret = env.STRIPE_WEBHOOK_SECRET ?? '';
    if (!publishableKey || !webhookSecret) {
      throw new Error('STRIPE_SECRET_KEY needs STRIPE_PUBLISHABLE_KEY and STRIPE_WEBHOOK_SECRET as well');
    }
    return { provider: 'stripe', secretKey: realSecretKey, publishableKey, webhookSecret, apiBase: null, browserApiBase: null };
  }
  // A production shop must never take "payments" from a stand-in nobody asked for.
  if (!apiBase && isProduction) return null;
  const localBase = apiBase ?? `http://127.0.0.1:${readInt(env, 'DEV_STRIPE_PORT', 4020)}`;
  return {
    provider: 'local',
    secretKey: env.STRIPE_SECRET_KEY || DEV_STRIPE.secretKey,
    publishableKey: env.STRIPE_PUBLISHABLE_KEY || DEV_STRIPE.publishableKey,
    webhookSecret: env.STRIPE_WEBHOOK_SECRET || DEV_STRIPE.webhookSecret,
    apiBase: localBase,
    browserApiBase: env.STRIPE_BROWSER_API_BASE?.replace(/\/$/, '') || localBase,
  };
}

function loadOidcConfig(env: NodeJS.ProcessEnv, isProduction: boolean, publicUrl: string): OidcConfig | null {
  const redirectUri = env.OIDC_REDIRECT_URI || `${publicUrl}/api/auth/oidc/callback`;
  if (env.OIDC_CLIENT_ID) {
    return {
      issuer: env.OIDC_ISSUER || 'https://accounts.google.com',
      clientId: env.OIDC_CLIENT_ID,
      clientSecret: env.OIDC_CLIENT_SECRET ?? '',
      redirectUri,
    };
  }
  if (isProduction) return null;
  return {
    issuer: env.OIDC_ISSUER || `http://localhost:${readInt(env, 'DEV_OIDC_PORT', 4010)}`,
    clientId: DEV_OIDC.clientId,
    clientSecret: DEV_OIDC.clientSecret,
    redirectUri,
  };
}

function loadMailConfig(env: NodeJS.ProcessEnv, isProduction: boolean): MailConfig | null {
  const smtpUrl = env.SMTP_URL || (isProduction ? '' : `smtp://127.0.0.1:${readInt(env, 'DEV_SMTP_PORT', 4025)}`);
  if (!smtpUrl) return null;
  return { smtpUrl, from: env.MAIL_FROM || 'Boat shop <no-reply@boatshop.example>' };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const nodeEnv = env.NODE_ENV ?? 'development';
  const isProduction = nodeEnv === 'production';

  const jwtSecret = env.JWT_SECRET || (isProduction ? '' : DEV_JWT_SECRET);
  if (!jwtSecret) throw new Error('JWT_SECRET is required when NODE_ENV=production');

  const logLevel = (env.LOG_LEVEL ?? (nodeEnv === 'test' ? 'silent' : 'info')) as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) throw new Error(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);

  const publicUrl = (env.PUBLIC_URL || 'http://localhost:3000').replace(/\/$/, '');

  return {
    nodeEnv,
    isProduction,
    host: env.API_HOST || '127.0.0.1',
    port: readInt(env, 'API_PORT', 4000),
    databaseUrl: env.DATABASE_URL || null,
    pgliteDir: env.PGLITE_DIR || path.join(API_ROOT, '.data', 'pglite'),
    jwtSecret,
    publicUrl,
    sessionTtlSeconds: readInt(env, 'SESSION_TTL_SECONDS', 14 * 24 * 60 * 60),
    logLevel,
    // Demo accounts have published passwords: never seed them into a production database by default.
    seedDemoData: readBool(env, 'SEED_DEMO_DATA', !isProduction),
    imagesDir: path.join(API_ROOT, 'public', 'images'),
    oidc: loadOidcConfig(env, isProduction, publicUrl),
    mail: loadMailConfig(env, isProduction),
    authRateLimitPerMinute: readInt(env, 'AUTH_RATE_LIMIT_PER_MINUTE', 10),
    payments: loadPaymentsConfig(env, isProduction),
    catalogCache: {
      ttlMs: readInt(env, 'CATALOG_CACHE_TTL_MS', 60_000),
      maxEntries: Math.max(1, readInt(env, 'CATALOG_CACHE_MAX_ENTRIES', 1000)),
    },
    trustProxy: readTrustedProxies(env),
    orders: {
      pendingOrderTtlMinutes: Math.max(1, readInt(env, 'PENDING_ORDER_TTL_MINUTES', 24 * 60)),
    },
    jobs: {
      enabled: readBool(env, 'JOBS_ENABLED', true),
      pollingIntervalSeconds: Math.max(1, readInt(env, 'JOBS_POLLING_INTERVAL_SECONDS', 1)),
      retryLimit: readInt(env, 'JOBS_RETRY_LIMIT', 8),
      retryDelaySeconds: Math.max(1, readInt(env, 'JOBS_RETRY_DELAY_SECONDS', 30)),
      outboxSweepMs: Math.max(100, readInt(env, 'OUTBOX_SWEEP_MS', 1000)),
    },
  };
}
