import { electronicFormatIBAN, isValidBIC, isValidIBAN } from 'ibantools';
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
  /** Card payments; null only when no provider is configured (payment routes answer 503). Production refuses to start without Stripe keys. */
  payments: PaymentsConfig | null;
  /** The per-process read cache of the public catalogue (GET /api/products, /api/products/:id). */
  catalogCache: CatalogCacheConfig;
  /**
   * Addresses (or CIDR ranges) of the proxies whose X-Forwarded-For is believed: request.ip,
   * hence the per-IP rate limits and the logs, comes from it only when the connection is theirs.
   * Empty: no proxy is trusted and request.ip is the socket's address.
   */
  trustProxy: string[];
  /** How the API holds its PostgreSQL connections, and how soon it gives up on them. */
  database: DatabaseConfig;
  /** When the API sheds load itself (503 + Retry-After) before its event loop drowns. */
  loadShedding: LoadSheddingConfig;
  /** What the hourly `housekeeping.purge` job keeps (features/housekeeping/purge.ts). */
  housekeeping: HousekeepingConfig;
  /** REDIS_URL: the rate limits' shared store across replicas; null keeps them in process memory. */
  redisUrl: string | null;
  /**
   * Outside production: the settings that fell back to a published development value (printed
   * loudly at start by server.ts). Always empty in production, which refuses to start instead.
   */
  developmentDefaults: string[];
  orders: OrdersConfig;
  jobs: JobsConfig;
  /** Deposits and the balance by bank transfer (issue 13). */
  deposits: DepositsConfig;
}

export interface DepositsConfig {
  /** The most one card payment may carry, in cents (the provider's ceiling: 999.999,99 €). */
  cardLimitCents: number;
  /** The deposit, in per cent of the total (1..100), rounded to whole euros. */
  percent: number;
  /** Categories whose orders always offer a deposit (below the card limit too). */
  categories: string[];
  /** Days after the deposit within which the balance is due. */
  balanceDueDays: number;
  /** Where the shopper transfers the balance: shown on the order page and in the e-mails. */
  bankAccountHolder: string;
  /** electronic format, no spaces, validated with ibantools */
  bankIban: string;
  bankBic: string;
}

/** Development bank details: a valid test IBAN nobody owns. Production refuses them. */
export const DEV_BANK = {
  accountHolder: 'Boat shop demo account (development)',
  iban: 'DE89370400440532013000',
  bic: 'COBADEFFXXX',
} as const;

export interface DatabaseConfig {
  /** PostgreSQL pool size per process */
  poolSize: number;
  /** giving up on opening a connection, and on waiting for a free one */
  connectTimeoutMs: number;
  /** PostgreSQL cancels a statement running longer; 0 lets statements run for ever */
  statementTimeoutMs: number;
  /** requests allowed to queue for a connection when all are busy; more answer 503 at once */
  maxWaiting: number;
  /** the Retry-After of a 503 that says the database is unavailable */
  retryAfterSeconds: number;
  /** how often a LISTEN connection proves it is alive (a dead network raises no error by itself) */
  heartbeatMs: number;
}

export interface LoadSheddingConfig {
  /** mean event-loop delay above which requests answer 503; 0 turns the check off */
  maxEventLoopDelayMs: number;
  /** event-loop utilization (0..1) above which requests answer 503; 0 turns the check off */
  maxEventLoopUtilization: number;
  retryAfterSeconds: number;
}

export interface HousekeepingConfig {
  /** expired or revoked sessions are kept this long (support, audit), then purged */
  sessionGraceDays: number;
  /** handled webhook events are kept this long for replay detection, then purged */
  paymentEventRetentionDays: number;
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

function readFraction(env: NodeJS.ProcessEnv, key: string, fallback: number): number {
  const raw = env[key];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0 || value > 1) throw new Error(`${key} must be a number from 0 to 1, got "${raw}"`);
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
  const entries = raw
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
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

function loadDepositsConfig(env: NodeJS.ProcessEnv): DepositsConfig {
  const cardLimitCents = readInt(env, 'CARD_PAYMENT_LIMIT_CENTS', 99_999_999);
  if (cardLimitCents < 100) throw new Error('CARD_PAYMENT_LIMIT_CENTS must be at least 100 (1,00 €)');
  const percent = readInt(env, 'DEPOSIT_PERCENT', 10);
  if (percent < 1 || percent > 100) throw new Error(`DEPOSIT_PERCENT must be from 1 to 100, got "${env.DEPOSIT_PERCENT}"`);
  const categories = (env.DEPOSIT_CATEGORIES ?? '')
    .split(',')
    .map((c) => c.trim())
    .filter(Boolean);
  const iban = electronicFormatIBAN(env.BANK_IBAN?.trim() || DEV_BANK.iban) ?? '';
  if (!isValidIBAN(iban)) throw new Error(`BANK_IBAN is not a valid IBAN, got "${env.BANK_IBAN}"`);
  const bic = (env.BANK_BIC?.trim() || DEV_BANK.bic).toUpperCase();
  if (!isValidBIC(bic)) throw new Error(`BANK_BIC is not a valid BIC, got "${env.BANK_BIC}"`);
  return {
    cardLimitCents,
    percent,
    categories,
    balanceDueDays: Math.max(1, readInt(env, 'BALANCE_DUE_DAYS', 14)),
    bankAccountHolder: env.BANK_ACCOUNT_HOLDER?.trim() || DEV_BANK.accountHolder,
    bankIban: iban,
    bankBic: bic,
  };
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
  if (isProduction) assertProductionSettings(env);

  const jwtSecret = env.JWT_SECRET || DEV_JWT_SECRET;

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
    database: {
      poolSize: Math.max(1, readInt(env, 'DATABASE_POOL_SIZE', 10)),
      connectTimeoutMs: Math.max(1, readInt(env, 'DATABASE_CONNECT_TIMEOUT_MS', 2_000)),
      statementTimeoutMs: readInt(env, 'DATABASE_STATEMENT_TIMEOUT_MS', 5_000),
      maxWaiting: readInt(env, 'DATABASE_MAX_WAITING', 100),
      retryAfterSeconds: Math.max(1, readInt(env, 'DATABASE_RETRY_AFTER_SECONDS', 5)),
      heartbeatMs: Math.max(100, readInt(env, 'DATABASE_HEARTBEAT_MS', 5_000)),
    },
    loadShedding: {
      maxEventLoopDelayMs: readInt(env, 'MAX_EVENT_LOOP_DELAY_MS', 1_000),
      maxEventLoopUtilization: readFraction(env, 'MAX_EVENT_LOOP_UTILIZATION', 0),
      retryAfterSeconds: Math.max(1, readInt(env, 'LOAD_SHEDDING_RETRY_AFTER_SECONDS', 10)),
    },
    housekeeping: {
      sessionGraceDays: readInt(env, 'PURGE_SESSIONS_AFTER_DAYS', 7),
      paymentEventRetentionDays: readInt(env, 'PURGE_PAYMENT_EVENTS_AFTER_DAYS', 30),
    },
    redisUrl: env.REDIS_URL || null,
    developmentDefaults: isProduction ? [] : developmentDefaultsInUse(env),
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
    deposits: loadDepositsConfig(env),
  };
}

// ---------------------------------------------------------------------------------------------
// Production safety: a production API never runs on a value anyone can read in this repository.

/**
 * Values published in this repository (config defaults, dev-services, docker-compose.yml, the
 * tests, the READMEs): whoever knows them could sign sessions, forge webhooks or read the database.
 */
export const PUBLISHED_DEV_VALUES: ReadonlySet<string> = new Set([
  DEV_JWT_SECRET,
  'compose-local-secret-change-me-before-any-real-use',
  DEV_STRIPE.secretKey,
  DEV_STRIPE.publishableKey,
  DEV_STRIPE.webhookSecret,
  'sk_test_standin',
  'pk_test_browser',
  'whsec_test_standin',
  DEV_OIDC.clientId,
  DEV_OIDC.clientSecret,
  'boatshop-test-secret',
]);

/** Database passwords published here (docker-compose.yml's former default, the READMEs). */
const PUBLISHED_DATABASE_PASSWORDS: ReadonlySet<string> = new Set(['boatshop-local', 'postgres', 'password', 'boatshop']);

const MIN_JWT_SECRET_LENGTH = 32;

/** Thrown by loadConfig when NODE_ENV=production and a setting is missing or unsafe. */
export class ProductionConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Refusing to start with NODE_ENV=production:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ProductionConfigError';
  }
}

function published(value: string): boolean {
  return PUBLISHED_DEV_VALUES.has(value.trim());
}

/** Every problem at once, each naming its variable, so an operator fixes them in one go. */
export function productionProblems(env: NodeJS.ProcessEnv): string[] {
  const problems: string[] = [];
  const required = (key: string, rule?: (value: string) => string | null) => {
    const value = env[key]?.trim() ?? '';
    if (!value) return problems.push(`${key} is missing`);
    if (published(value)) return problems.push(`${key} is a published development value: set a secret of your own`);
    const problem = rule?.(value);
    if (problem) problems.push(`${key} ${problem}`);
  };

  required('DATABASE_URL', (value) => {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      return 'is not a URL (postgres://user:password@host:5432/database)';
    }
    if (!['postgres:', 'postgresql:'].includes(url.protocol)) return 'must be a postgres:// URL (PGlite is for development)';
    const password = decodeURIComponent(url.password);
    if (password && PUBLISHED_DATABASE_PASSWORDS.has(password)) return 'has a published development password';
    return null;
  });
  required('JWT_SECRET', (value) =>
    value.length < MIN_JWT_SECRET_LENGTH ? `must be at least ${MIN_JWT_SECRET_LENGTH} characters (e.g. openssl rand -base64 48)` : null,
  );
  required('PUBLIC_URL', (value) => {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      return 'is not a URL';
    }
    // The session and csrf cookies are Secure only when the shop is served over https.
    return url.protocol === 'https:' ? null : 'must be https:// in production (the session cookies are sent Secure)';
  });
  required('STRIPE_SECRET_KEY', (value) => (/^(sk|rk)_/.test(value) ? null : 'must be a Stripe secret key (sk_live_… or rk_live_…)'));
  required('STRIPE_PUBLISHABLE_KEY', (value) => (value.startsWith('pk_') ? null : 'must be a Stripe publishable key (pk_live_…)'));
  required('STRIPE_WEBHOOK_SECRET', (value) => (value.startsWith('whsec_') ? null : 'must be a Stripe webhook signing secret (whsec_…)'));
  if (env.STRIPE_API_BASE) problems.push('STRIPE_API_BASE must not be set: it sends payments to the local stand-in');

  // Social sign-in and e-mail are optional in production, but never on the development client.
  if (env.OIDC_CLIENT_ID) {
    if (published(env.OIDC_CLIENT_ID)) problems.push('OIDC_CLIENT_ID is the development client of dev-services');
    required('OIDC_CLIENT_SECRET');
  }
  // The bank account shoppers transfer balances to: never the development one.
  const bank = (key: string, devValue: string, valid: (value: string) => boolean, what: string) => {
    const value = env[key]?.trim() ?? '';
    if (!value) return problems.push(`${key} is missing (the shop's bank account for balances paid by transfer)`);
    const normal = key === 'BANK_IBAN' ? (electronicFormatIBAN(value) ?? value) : value.toUpperCase();
    if (normal === devValue.toUpperCase()) return problems.push(`${key} is the development value: set the shop's own account`);
    if (!valid(normal)) problems.push(`${key} is not a valid ${what}`);
  };
  bank('BANK_ACCOUNT_HOLDER', DEV_BANK.accountHolder, () => true, 'account holder');
  bank('BANK_IBAN', DEV_BANK.iban, (value) => isValidIBAN(value), 'IBAN');
  bank('BANK_BIC', DEV_BANK.bic, (value) => isValidBIC(value), 'BIC');
  if (env.SEED_DEMO_DATA && readBool(env, 'SEED_DEMO_DATA', false)) {
    problems.push('SEED_DEMO_DATA must be off: the demo accounts (an admin among them) have published passwords');
  }
  return problems;
}

function assertProductionSettings(env: NodeJS.ProcessEnv): void {
  const problems = productionProblems(env);
  if (problems.length > 0) throw new ProductionConfigError(problems);
}

/** Outside production: which settings run on their published development default. */
function developmentDefaultsInUse(env: NodeJS.ProcessEnv): string[] {
  const defaulted = (key: string) => !env[key] || published(env[key]!);
  return [
    ...(env.DATABASE_URL ? [] : ['DATABASE_URL (embedded PGlite)']),
    ...(defaulted('JWT_SECRET') ? ['JWT_SECRET'] : []),
    ...(env.PUBLIC_URL?.startsWith('https:') ? [] : ['PUBLIC_URL (http: cookies are not Secure)']),
    ...(defaulted('STRIPE_SECRET_KEY') || env.STRIPE_API_BASE ? ['STRIPE_* (the local stand-in)'] : []),
    ...(env.OIDC_CLIENT_ID ? [] : ['OIDC_* (the local OpenID provider)']),
    ...(env.SMTP_URL ? [] : ['SMTP_URL (the local mailbox)']),
    ...(env.BANK_IBAN ? [] : ['BANK_* (a test bank account)']),
    ...(readBool(env, 'SEED_DEMO_DATA', true) ? ['SEED_DEMO_DATA (demo accounts with published passwords)'] : []),
  ];
}

/** The loud line server.ts prints when NODE_ENV is not production; null in production. */
export function developmentWarning(config: Pick<Config, 'isProduction' | 'nodeEnv' | 'developmentDefaults'>): string | null {
  if (config.isProduction) return null;
  return (
    `NOT PRODUCTION (NODE_ENV=${config.nodeEnv}): development defaults are in use` +
    (config.developmentDefaults.length ? ` for ${config.developmentDefaults.join(', ')}` : '') +
    '. Never expose this server; set NODE_ENV=production for a real shop.'
  );
}
