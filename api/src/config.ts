import { EU_COUNTRIES, MAX_PAYMENT_CENTS, MIN_PAYMENT_CENTS } from '@boatshop/contract/constants';
import { FormatRegistry, Type, type Static, type TInteger, type TOptional, type TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { electronicFormatIBAN, isValidBIC, isValidIBAN } from 'ibantools';
import net from 'node:net';
import path from 'node:path';
import { loadPicturesConfig, picturesProductionProblems, type PicturesConfig } from './features/pictures/pictures-config.js';

// Every environment setting the API reads, parsed once through one TypeBox schema
// (EnvironmentSchema) into one typed object. Other features add their keys to the schema rather
// than reading process.env themselves.

const API_ROOT = path.resolve(import.meta.dirname, '..');

/**
 * The development defaults, all in one place: what an unset setting becomes outside production.
 * Production never runs on them: it refuses to start without values of its own (productionProblems
 * below), or leaves the feature off (social sign-in, e-mail). Every value here is published, so
 * PUBLISHED_DEV_VALUES lists the secrets among them.
 */
export const DEVELOPMENT_DEFAULTS = {
  JWT_SECRET: 'dev-only-insecure-jwt-secret-do-not-use-in-production',
  PUBLIC_URL: 'http://localhost:3000',
  /** the demo catalogue and the demo accounts, seeded into an empty database */
  SEED_DEMO_DATA: true,
  /** the local payment stand-in's test-mode keys (dev-services uses the same) */
  STRIPE_SECRET_KEY: 'sk_test_dev',
  STRIPE_PUBLISHABLE_KEY: 'pk_test_dev',
  STRIPE_WEBHOOK_SECRET: 'whsec_dev_boatshop',
  /** the local OpenID provider's client (dev-services) */
  OIDC_CLIENT_ID: 'boatshop-dev',
  OIDC_CLIENT_SECRET: 'boatshop-dev-secret',
  /** a valid test IBAN nobody owns */
  BANK_ACCOUNT_HOLDER: 'Boat shop demo account (development)',
  BANK_IBAN: 'DE89370400440532013000',
  BANK_BIC: 'COBADEFFXXX',
  /** books: an invented seller; production refuses every one of these */
  SELLER_NAME: 'Boat shop demo GmbH (development)',
  SELLER_ADDRESS: 'Hafenstraße 1; 20457 Hamburg',
  SELLER_COUNTRY: 'DE',
  SELLER_VAT_ID: 'DE000000000',
  SELLER_TAX_NUMBER: '00/000/00000',
  /** find: signs the alert e-mails' unsubscribe links */
  SAVED_SEARCH_ALERTS_SECRET: 'dev-only-saved-search-alerts-secret-not-for-production',
} as const;

/** Only for development and tests; production refuses to start without JWT_SECRET. */
export const DEV_JWT_SECRET = DEVELOPMENT_DEFAULTS.JWT_SECRET;

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
  /**
   * An in-memory PGlite starts from this dump (`pglite.dumpDataDir()`) instead of an empty cluster:
   * the API's tests make one migrated dump per run (test/global-setup.ts), and each test file's
   * database starts from it in about a second instead of initdb plus every migration.
   */
  pgliteTemplate: string | null;
  jwtSecret: string;
  /** The shop's public origin (the shell), used for cookies and links. */
  publicUrl: string;
  sessionTtlSeconds: number;
  logLevel: LogLevel;
  /** Seed the demo catalogue and demo accounts when the products table is empty. */
  seedDemoData: boolean;
  /** Folder of the shipped demo pictures served at /api/images. */
  imagesDir: string;
  /** find: uploaded pictures' storage and limits */
  pictures: PicturesConfig;
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
   * The search's list-facet counts come from the facet-cell table (docs/adr/0048); false
   * (SEARCH_FACET_CELLS=false) computes every count from products, as the bench's comparison does.
   */
  searchFacetCells: boolean;
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
  /** Deposits and the balance by bank transfer (above the card limit, or for the deposit categories). */
  deposits: DepositsConfig;
  /** books: the seller on every invoice (its bank account is deposits' bank details) */
  seller: SellerConfig;
  /** books: where buyers' VAT IDs are confirmed */
  vies: ViesConfig;
  /** sales: enquiries and conversations */
  sales: SalesConfig;
  /** people: staff roles, step-up and the audit log. */
  people: PeopleConfig;
  /** Running as one of many replicas: shutdown deadline, the metrics endpoint's token. */
  cluster: ClusterConfig;
  // find: the saved searches' alert e-mails
  alerts: AlertsConfig;
}

export interface SellerConfig {
  name: string;
  /** lines of the postal address */
  addressLines: string[];
  /** member state code, e.g. DE */
  country: string;
  /** e.g. DE123456789 */
  vatId: string;
  taxNumber: string;
}

export interface ViesConfig {
  /** the VIES REST API's base (production: the Commission's; elsewhere the dev-services stand-in) */
  apiBase: string;
  timeoutMs: number;
}

/** The Commission's VIES REST API. */
export const VIES_PRODUCTION_API = 'https://ec.europa.eu/taxation_customs/vies/rest-api';

// people: staff limits and step-up ------------------------------------------------------------
export interface PeopleConfig {
  /** A `sales` staff member may refund (or cancel a paid order) up to this many cents; above it only an owner may. */
  salesRefundLimitCents: number;
  /** Refunds and cancellations above this many cents ask for the password again (step-up). */
  stepUpAboveCents: number;
}
// end people ----------------------------------------------------------------------------------

// cluster: replicas, shutdown and metrics.
export interface ClusterConfig {
  /** SHUTDOWN_GRACE_MS: on SIGTERM, in-flight requests and jobs get this long before the process exits anyway. */
  shutdownGraceMs: number;
  /** METRICS_TOKEN: GET /api/metrics answers only a request bearing it; unset, the route answers 404. */
  metricsToken: string | null;
}
// find: the saved searches' alert e-mails.
export interface AlertsConfig {
  /** SAVED_SEARCH_ALERTS_SECRET: signs each alert's unsubscribe link (HMAC-SHA256). */
  unsubscribeSecret: string;
}
/** An unsubscribe secret shorter than this could be guessed from the links shoppers receive. */
export const MIN_ALERTS_SECRET_LENGTH = 32;

/** A metrics token shorter than this is guessable by a scraper of the public address. */
export const MIN_METRICS_TOKEN_LENGTH = 24;

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

/** Sales: enquiries, conversations and their limits per e-mail address and per account. */
export interface SalesConfig {
  /** the shop's address that hears of new enquiries and shopper replies */
  inbox: string;
  /** new enquiries one e-mail address (or account) may start per hour, confirmed or not */
  enquiriesPerHour: number;
  /** messages one account may add to its conversations per hour */
  messagesPerHour: number;
  /** requests per minute from one client address to the enquiry routes; 0 turns it off */
  perIpPerMinute: number;
}

/** Development bank details: a valid test IBAN nobody owns. Production refuses them. */
export const DEV_BANK = {
  accountHolder: DEVELOPMENT_DEFAULTS.BANK_ACCOUNT_HOLDER,
  iban: DEVELOPMENT_DEFAULTS.BANK_IBAN,
  bic: DEVELOPMENT_DEFAULTS.BANK_BIC,
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
  // ledger: holds of one-off boats
  /** an unpaid card checkout holds its one-off boats this long; then they are for sale again */
  checkoutHoldMinutes: number;
  /** unpaid checkouts holding one-off boats at once, per account and per client address */
  maxOpenHoldsPerAccount: number;
  maxOpenHoldsPerAddress: number;
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
  secretKey: DEVELOPMENT_DEFAULTS.STRIPE_SECRET_KEY,
  publishableKey: DEVELOPMENT_DEFAULTS.STRIPE_PUBLISHABLE_KEY,
  webhookSecret: DEVELOPMENT_DEFAULTS.STRIPE_WEBHOOK_SECRET,
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
  clientId: DEVELOPMENT_DEFAULTS.OIDC_CLIENT_ID,
  clientSecret: DEVELOPMENT_DEFAULTS.OIDC_CLIENT_SECRET,
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

/** Where the shell's /api proxy and a local reverse proxy connect from. */
export const DEFAULT_TRUSTED_PROXIES = ['127.0.0.1', '::1'] as const;

// proxy-addr's names for ranges, which Fastify understands as well as addresses and CIDRs.
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

function isTrustedProxyList(raw: string): boolean {
  if (raw.toLowerCase() === 'none') return true;
  const entries = raw
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  // "true" or "*" would let any client pick its own IP, which is exactly what this setting prevents.
  return entries.every((entry) => {
    const [address, prefix, ...rest] = entry.split('/');
    const validAddress = PROXY_RANGE_NAMES.includes(entry) || (rest.length === 0 && net.isIP(address!) !== 0);
    return validAddress && (prefix === undefined || /^\d{1,3}$/.test(prefix));
  });
}

FormatRegistry.Set('trusted-proxies', isTrustedProxyList);
FormatRegistry.Set('iban', (value) => isValidIBAN(electronicFormatIBAN(value) ?? ''));
FormatRegistry.Set('bic', (value) => isValidBIC(value.toUpperCase()));
FormatRegistry.Set('eu-country', (value) => (EU_COUNTRIES as readonly string[]).includes(value.toUpperCase()));
FormatRegistry.Set('vat-id', (value) => /^[A-Z]{2}[0-9A-Z+*]{2,12}$/.test(value.replace(/\s/g, '').toUpperCase()));

// The schema's helpers: every setting is optional (unset and blank are the same), typed, bounded,
// and carries its default where one applies in production too. The development-only defaults are
// DEVELOPMENT_DEFAULTS above.
// A setting with a default is never missing once parsed (Value.Default fills it), so its type is
// required; one without may be absent.
function int(defaultValue: number, minimum?: number, maximum?: number): TInteger;
function int(defaultValue: undefined, minimum?: number, maximum?: number): TOptional<TInteger>;
function int(defaultValue: number | undefined, minimum = 0, maximum?: number): TInteger | TOptional<TInteger> {
  const integer = Type.Integer({
    minimum,
    ...(maximum === undefined ? {} : { maximum }),
    ...(defaultValue === undefined ? {} : { default: defaultValue }),
  });
  return defaultValue === undefined ? Type.Optional(integer) : integer;
}
const bool = () => Type.Optional(Type.Boolean());
const text = (options: { format?: string; description?: string } = {}) => Type.Optional(Type.String(options));

/** Every environment variable the API reads. */
export const EnvironmentSchema = Type.Object({
  NODE_ENV: text(),
  API_HOST: Type.String({ default: '127.0.0.1' }),
  API_PORT: int(4000, 0, 65_535),
  DATABASE_URL: text(),
  PGLITE_DIR: text(),
  PGLITE_TEMPLATE: text(),
  JWT_SECRET: text(),
  PUBLIC_URL: text(),
  SESSION_TTL_SECONDS: int(14 * 24 * 60 * 60, 1),
  LOG_LEVEL: Type.Optional(Type.Union(LOG_LEVELS.map((level) => Type.Literal(level)))),
  SEED_DEMO_DATA: bool(),
  OIDC_ISSUER: text(),
  OIDC_CLIENT_ID: text(),
  OIDC_CLIENT_SECRET: text(),
  OIDC_REDIRECT_URI: text(),
  SMTP_URL: text(),
  MAIL_FROM: Type.String({ default: 'Boat shop <no-reply@boatshop.example>' }),
  AUTH_RATE_LIMIT_PER_MINUTE: int(10),
  STRIPE_API_BASE: text(),
  STRIPE_BROWSER_API_BASE: text(),
  STRIPE_SECRET_KEY: text(),
  STRIPE_PUBLISHABLE_KEY: text(),
  STRIPE_WEBHOOK_SECRET: text(),
  // Where the development stand-ins listen (dev-services); unused in production.
  DEV_STRIPE_PORT: int(4020, 1, 65_535),
  DEV_OIDC_PORT: int(4010, 1, 65_535),
  DEV_SMTP_PORT: int(4025, 1, 65_535),
  CATALOG_CACHE_TTL_MS: int(60_000),
  CATALOG_CACHE_MAX_ENTRIES: int(1000, 1),
  SEARCH_FACET_CELLS: Type.Boolean({ default: true }),
  TRUST_PROXY: text({ format: 'trusted-proxies', description: '"none" or comma-separated IP addresses or CIDR ranges' }),
  DATABASE_POOL_SIZE: int(10, 1),
  DATABASE_CONNECT_TIMEOUT_MS: int(2_000, 1),
  DATABASE_STATEMENT_TIMEOUT_MS: int(5_000),
  DATABASE_MAX_WAITING: int(100),
  DATABASE_RETRY_AFTER_SECONDS: int(5, 1),
  DATABASE_HEARTBEAT_MS: int(5_000, 100),
  MAX_EVENT_LOOP_DELAY_MS: int(1_000),
  MAX_EVENT_LOOP_UTILIZATION: Type.Number({ minimum: 0, maximum: 1, default: 0 }),
  LOAD_SHEDDING_RETRY_AFTER_SECONDS: int(10, 1),
  PURGE_SESSIONS_AFTER_DAYS: int(7),
  PURGE_PAYMENT_EVENTS_AFTER_DAYS: int(30),
  REDIS_URL: text(),
  PENDING_ORDER_TTL_MINUTES: int(24 * 60, 1),
  // ledger: holds of one-off boats
  CHECKOUT_HOLD_MINUTES: int(15, 1),
  MAX_OPEN_HOLDS_PER_ACCOUNT: int(2, 1),
  MAX_OPEN_HOLDS_PER_ADDRESS: int(3, 1),
  JOBS_ENABLED: Type.Boolean({ default: true }),
  JOBS_POLLING_INTERVAL_SECONDS: int(1, 1),
  JOBS_RETRY_LIMIT: int(8),
  JOBS_RETRY_DELAY_SECONDS: int(30, 1),
  OUTBOX_SWEEP_MS: int(1000, 100),
  // The provider's ceiling for one card payment is 999.999,99 €; less than 1,00 € cannot be charged.
  CARD_PAYMENT_LIMIT_CENTS: int(MAX_PAYMENT_CENTS, MIN_PAYMENT_CENTS),
  DEPOSIT_PERCENT: int(10, 1, 100),
  DEPOSIT_CATEGORIES: text(),
  BALANCE_DUE_DAYS: int(14, 1),
  BANK_ACCOUNT_HOLDER: text(),
  BANK_IBAN: text({ format: 'iban', description: 'a valid IBAN' }),
  BANK_BIC: text({ format: 'bic', description: 'a valid BIC' }),
  // books: the seller on every invoice, and the VIES service that confirms buyers' VAT IDs.
  SELLER_NAME: text(),
  SELLER_ADDRESS: text({ description: 'street, postcode and town, lines separated by "; "' }),
  SELLER_COUNTRY: text({ format: 'eu-country', description: 'a member state code such as DE' }),
  SELLER_VAT_ID: text({ format: 'vat-id', description: 'a VAT ID such as DE123456789' }),
  SELLER_TAX_NUMBER: text(),
  VIES_API_BASE: text({ description: 'the VIES REST API, e.g. https://ec.europa.eu/taxation_customs/vies/rest-api' }),
  VIES_TIMEOUT_MS: int(8_000, 100),
  DEV_VIES_PORT: int(4030, 1, 65_535),
  // sales: where new enquiries and shopper replies are announced, and the spam limits
  SALES_INBOX: Type.String({ default: 'sales@boatshop.example' }),
  SALES_ENQUIRIES_PER_HOUR: int(3, 1),
  SALES_MESSAGES_PER_HOUR: int(20, 1),
  SALES_RATE_LIMIT_PER_MINUTE: int(10),
  // people: what a sales person may refund, and the amount above which a refund asks for the password again.
  SALES_REFUND_LIMIT_CENTS: int(1_000_000, 0),
  STEP_UP_ABOVE_CENTS: int(500_000, 0),
  // cluster: replicas, shutdown and metrics.
  SHUTDOWN_GRACE_MS: int(10_000, 100),
  METRICS_TOKEN: text(),
  // find: the saved searches' alert e-mails.
  SAVED_SEARCH_ALERTS_SECRET: text(),
  // find: where uploaded pictures are kept (features/pictures/pictures-config.ts)
  PICTURE_STORAGE: Type.Optional(Type.Union([Type.Literal('local'), Type.Literal('s3')])),
  PICTURES_DIR: text(),
  S3_ENDPOINT: text({ description: 'an http(s) address' }),
  S3_BUCKET: text(),
  S3_REGION: text(),
  S3_ACCESS_KEY_ID: text(),
  S3_SECRET_ACCESS_KEY: text(),
  PICTURE_MAX_PIXELS: int(100_000_000, 1),
});

export type Environment = Static<typeof EnvironmentSchema>;

/** Thrown by loadConfig when a setting cannot be read; names every bad variable at once. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.length === 1 ? problems[0]! : `Invalid settings:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

const TRUE_WORDS = ['1', 'true', 'yes'];
const FALSE_WORDS = ['0', 'false', 'no'];

/** What a setting must be, in words, from its schema: "API_PORT must be an integer from 0 to 65535". */
function expectation(schema: TSchema): string {
  if (schema.type === 'integer') {
    if (schema.maximum !== undefined) return `an integer from ${schema.minimum} to ${schema.maximum}`;
    return schema.minimum === 0 ? 'a non-negative integer' : `an integer of at least ${schema.minimum}`;
  }
  if (schema.type === 'number') return `a number from ${schema.minimum} to ${schema.maximum}`;
  if (schema.type === 'boolean') return 'true or false';
  if (Array.isArray(schema.anyOf)) return `one of ${(schema.anyOf as TSchema[]).map((member) => member.const).join(', ')}`;
  return schema.description ?? 'a string';
}

/** The environment's text as the schema's types; what cannot be read stays text, for the check to name. */
function coerce(schema: TSchema, raw: string): unknown {
  if (schema.type === 'integer' || schema.type === 'number') return Number.isFinite(Number(raw)) ? Number(raw) : raw;
  if (schema.type === 'boolean') {
    if (TRUE_WORDS.includes(raw.toLowerCase())) return true;
    if (FALSE_WORDS.includes(raw.toLowerCase())) return false;
  }
  return raw;
}

/**
 * Reads the environment through EnvironmentSchema: blank is unset, numbers and booleans are
 * parsed, defaults filled in, and every variable that does not fit is named in one ConfigError
 * (`API_PORT must be an integer from 0 to 65535, got "abc"`).
 */
export function parseEnvironment(env: NodeJS.ProcessEnv): Environment {
  const input: Record<string, unknown> = {};
  const properties = EnvironmentSchema.properties as Record<string, TSchema>;
  for (const [key, schema] of Object.entries(properties)) {
    const raw = env[key]?.trim();
    if (raw) input[key] = coerce(schema, raw);
  }
  const parsed = Value.Default(EnvironmentSchema, input);
  const problems = new Map<string, string>();
  for (const error of Value.Errors(EnvironmentSchema, parsed)) {
    const key = error.path.split('/')[1]!;
    if (!problems.has(key)) problems.set(key, `${key} must be ${expectation(properties[key]!)}, got "${env[key]}"`);
  }
  if (problems.size > 0) throw new ConfigError([...problems.values()]);
  return parsed as Environment;
}

function readTrustedProxies(value: string | undefined): string[] {
  if (value === undefined) return [...DEFAULT_TRUSTED_PROXIES];
  if (value.toLowerCase() === 'none') return [];
  return value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
}

function loadDepositsConfig(env: Environment): DepositsConfig {
  return {
    cardLimitCents: env.CARD_PAYMENT_LIMIT_CENTS,
    percent: env.DEPOSIT_PERCENT,
    categories: (env.DEPOSIT_CATEGORIES ?? '')
      .split(',')
      .map((c) => c.trim())
      .filter(Boolean),
    balanceDueDays: env.BALANCE_DUE_DAYS,
    bankAccountHolder: env.BANK_ACCOUNT_HOLDER ?? DEVELOPMENT_DEFAULTS.BANK_ACCOUNT_HOLDER,
    bankIban: electronicFormatIBAN(env.BANK_IBAN ?? DEVELOPMENT_DEFAULTS.BANK_IBAN)!,
    bankBic: (env.BANK_BIC ?? DEVELOPMENT_DEFAULTS.BANK_BIC).toUpperCase(),
  };
}

function loadPaymentsConfig(env: Environment, isProduction: boolean): PaymentsConfig | null {
  const apiBase = env.STRIPE_API_BASE?.replace(/\/$/, '') || null;
  // The stand-in's own key names no real account, so it never sends a shop to api.stripe.com.
  const realSecretKey = env.STRIPE_SECRET_KEY && env.STRIPE_SECRET_KEY !== DEV_STRIPE.secretKey ? env.STRIPE_SECRET_KEY : null;
  if (!apiBase && realSecretKey) {
    const publishableKey = env.STRIPE_PUBLISHABLE_KEY ?? '';
    const webhookSecret = env.STRIPE_WEBHOOK_SECRET ?? '';
    if (!publishableKey || !webhookSecret) {
      throw new ConfigError(['STRIPE_SECRET_KEY needs STRIPE_PUBLISHABLE_KEY and STRIPE_WEBHOOK_SECRET as well']);
    }
    return { provider: 'stripe', secretKey: realSecretKey, publishableKey, webhookSecret, apiBase: null, browserApiBase: null };
  }
  // A production shop must never take "payments" from a stand-in nobody asked for.
  if (!apiBase && isProduction) return null;
  const localBase = apiBase ?? `http://127.0.0.1:${env.DEV_STRIPE_PORT}`;
  return {
    provider: 'local',
    secretKey: env.STRIPE_SECRET_KEY ?? DEVELOPMENT_DEFAULTS.STRIPE_SECRET_KEY,
    publishableKey: env.STRIPE_PUBLISHABLE_KEY ?? DEVELOPMENT_DEFAULTS.STRIPE_PUBLISHABLE_KEY,
    webhookSecret: env.STRIPE_WEBHOOK_SECRET ?? DEVELOPMENT_DEFAULTS.STRIPE_WEBHOOK_SECRET,
    apiBase: localBase,
    browserApiBase: env.STRIPE_BROWSER_API_BASE?.replace(/\/$/, '') || localBase,
  };
}

function loadOidcConfig(env: Environment, isProduction: boolean, publicUrl: string): OidcConfig | null {
  const redirectUri = env.OIDC_REDIRECT_URI ?? `${publicUrl}/api/auth/oidc/callback`;
  if (env.OIDC_CLIENT_ID) {
    return {
      issuer: env.OIDC_ISSUER ?? 'https://accounts.google.com',
      clientId: env.OIDC_CLIENT_ID,
      clientSecret: env.OIDC_CLIENT_SECRET ?? '',
      redirectUri,
    };
  }
  if (isProduction) return null;
  return {
    issuer: env.OIDC_ISSUER ?? `http://localhost:${env.DEV_OIDC_PORT}`,
    clientId: DEVELOPMENT_DEFAULTS.OIDC_CLIENT_ID,
    clientSecret: DEVELOPMENT_DEFAULTS.OIDC_CLIENT_SECRET,
    redirectUri,
  };
}

function loadMailConfig(env: Environment, isProduction: boolean): MailConfig | null {
  const smtpUrl = env.SMTP_URL ?? (isProduction ? null : `smtp://127.0.0.1:${env.DEV_SMTP_PORT}`);
  if (!smtpUrl) return null;
  return { smtpUrl, from: env.MAIL_FROM };
}

export function loadConfig(processEnv: NodeJS.ProcessEnv = process.env): Config {
  const nodeEnv = processEnv.NODE_ENV || 'development';
  const isProduction = nodeEnv === 'production';
  if (isProduction) assertProductionSettings(processEnv);
  const env = parseEnvironment(processEnv);

  const publicUrl = (env.PUBLIC_URL ?? DEVELOPMENT_DEFAULTS.PUBLIC_URL).replace(/\/$/, '');

  return {
    nodeEnv,
    isProduction,
    host: env.API_HOST,
    port: env.API_PORT,
    databaseUrl: env.DATABASE_URL ?? null,
    pgliteDir: env.PGLITE_DIR ?? path.join(API_ROOT, '.data', 'pglite'),
    pgliteTemplate: env.PGLITE_TEMPLATE ?? null,
    jwtSecret: env.JWT_SECRET ?? DEVELOPMENT_DEFAULTS.JWT_SECRET,
    publicUrl,
    sessionTtlSeconds: env.SESSION_TTL_SECONDS,
    logLevel: env.LOG_LEVEL ?? (nodeEnv === 'test' ? 'silent' : 'info'),
    // Demo accounts have published passwords: never seed them into a production database by default.
    seedDemoData: env.SEED_DEMO_DATA ?? (isProduction ? false : DEVELOPMENT_DEFAULTS.SEED_DEMO_DATA),
    imagesDir: path.join(API_ROOT, 'public', 'images'),
    pictures: loadPicturesConfig(env, isProduction, API_ROOT),
    oidc: loadOidcConfig(env, isProduction, publicUrl),
    mail: loadMailConfig(env, isProduction),
    authRateLimitPerMinute: env.AUTH_RATE_LIMIT_PER_MINUTE,
    payments: loadPaymentsConfig(env, isProduction),
    catalogCache: {
      ttlMs: env.CATALOG_CACHE_TTL_MS,
      maxEntries: env.CATALOG_CACHE_MAX_ENTRIES,
    },
    searchFacetCells: env.SEARCH_FACET_CELLS,
    trustProxy: readTrustedProxies(env.TRUST_PROXY),
    database: {
      poolSize: env.DATABASE_POOL_SIZE,
      connectTimeoutMs: env.DATABASE_CONNECT_TIMEOUT_MS,
      statementTimeoutMs: env.DATABASE_STATEMENT_TIMEOUT_MS,
      maxWaiting: env.DATABASE_MAX_WAITING,
      retryAfterSeconds: env.DATABASE_RETRY_AFTER_SECONDS,
      heartbeatMs: env.DATABASE_HEARTBEAT_MS,
    },
    loadShedding: {
      maxEventLoopDelayMs: env.MAX_EVENT_LOOP_DELAY_MS,
      maxEventLoopUtilization: env.MAX_EVENT_LOOP_UTILIZATION,
      retryAfterSeconds: env.LOAD_SHEDDING_RETRY_AFTER_SECONDS,
    },
    housekeeping: {
      sessionGraceDays: env.PURGE_SESSIONS_AFTER_DAYS,
      paymentEventRetentionDays: env.PURGE_PAYMENT_EVENTS_AFTER_DAYS,
    },
    redisUrl: env.REDIS_URL ?? null,
    developmentDefaults: isProduction ? [] : developmentDefaultsInUse(processEnv, env),
    orders: {
      pendingOrderTtlMinutes: env.PENDING_ORDER_TTL_MINUTES,
      // ledger: holds of one-off boats
      checkoutHoldMinutes: env.CHECKOUT_HOLD_MINUTES,
      maxOpenHoldsPerAccount: env.MAX_OPEN_HOLDS_PER_ACCOUNT,
      maxOpenHoldsPerAddress: env.MAX_OPEN_HOLDS_PER_ADDRESS,
    },
    jobs: {
      enabled: env.JOBS_ENABLED,
      pollingIntervalSeconds: env.JOBS_POLLING_INTERVAL_SECONDS,
      retryLimit: env.JOBS_RETRY_LIMIT,
      retryDelaySeconds: env.JOBS_RETRY_DELAY_SECONDS,
      outboxSweepMs: env.OUTBOX_SWEEP_MS,
    },
    deposits: loadDepositsConfig(env),
    ...loadBooksConfig(env, isProduction),
    // sales
    sales: {
      inbox: env.SALES_INBOX,
      enquiriesPerHour: env.SALES_ENQUIRIES_PER_HOUR,
      messagesPerHour: env.SALES_MESSAGES_PER_HOUR,
      perIpPerMinute: env.SALES_RATE_LIMIT_PER_MINUTE,
    },
    people: { salesRefundLimitCents: env.SALES_REFUND_LIMIT_CENTS, stepUpAboveCents: env.STEP_UP_ABOVE_CENTS },
    // cluster: replicas, shutdown and metrics.
    cluster: {
      shutdownGraceMs: env.SHUTDOWN_GRACE_MS,
      metricsToken: env.METRICS_TOKEN ?? null,
    },
    alerts: { unsubscribeSecret: env.SAVED_SEARCH_ALERTS_SECRET ?? DEVELOPMENT_DEFAULTS.SAVED_SEARCH_ALERTS_SECRET },
  };
}

function loadBooksConfig(env: Environment, isProduction: boolean): Pick<Config, 'seller' | 'vies'> {
  const d = DEVELOPMENT_DEFAULTS;
  return {
    seller: {
      name: env.SELLER_NAME ?? d.SELLER_NAME,
      addressLines: (env.SELLER_ADDRESS ?? d.SELLER_ADDRESS)
        .split(';')
        .map((line) => line.trim())
        .filter(Boolean),
      country: (env.SELLER_COUNTRY ?? d.SELLER_COUNTRY).toUpperCase(),
      vatId: (env.SELLER_VAT_ID ?? d.SELLER_VAT_ID).replace(/\s/g, '').toUpperCase(),
      taxNumber: env.SELLER_TAX_NUMBER ?? d.SELLER_TAX_NUMBER,
    },
    vies: {
      apiBase: (env.VIES_API_BASE ?? (isProduction ? VIES_PRODUCTION_API : `http://127.0.0.1:${env.DEV_VIES_PORT}`)).replace(/\/$/, ''),
      timeoutMs: env.VIES_TIMEOUT_MS,
    },
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
  DEVELOPMENT_DEFAULTS.SAVED_SEARCH_ALERTS_SECRET,
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
  problems.push(...booksProductionProblems(env));
  // find: a forged unsubscribe link would silence any shopper's alerts.
  required('SAVED_SEARCH_ALERTS_SECRET', (value) =>
    value.length < MIN_ALERTS_SECRET_LENGTH
      ? `must be at least ${MIN_ALERTS_SECRET_LENGTH} characters (e.g. openssl rand -base64 48)`
      : null,
  );
  problems.push(...picturesProductionProblems(env));
  if (TRUE_WORDS.includes(env.SEED_DEMO_DATA?.trim().toLowerCase() ?? '')) {
    problems.push('SEED_DEMO_DATA must be off: the demo accounts (an admin among them) have published passwords');
  }
  // cluster: the metrics show order volumes and error rates; never behind a published or short token.
  if (env.METRICS_TOKEN?.trim()) {
    const token = env.METRICS_TOKEN.trim();
    if (published(token)) problems.push('METRICS_TOKEN is a published development value: set a secret of your own');
    else if (token.length < MIN_METRICS_TOKEN_LENGTH)
      problems.push(`METRICS_TOKEN must be at least ${MIN_METRICS_TOKEN_LENGTH} characters`);
  }
  return problems;
}

/** books: the seller named on invoices must be the real one, and VAT IDs must be checked with the real VIES. */
function booksProductionProblems(env: NodeJS.ProcessEnv): string[] {
  const problems: string[] = [];
  for (const key of ['SELLER_NAME', 'SELLER_ADDRESS', 'SELLER_COUNTRY', 'SELLER_VAT_ID', 'SELLER_TAX_NUMBER'] as const) {
    const value = env[key]?.trim() ?? '';
    if (!value) problems.push(`${key} is missing (the seller named on every invoice)`);
    else if (
      key !== 'SELLER_COUNTRY' &&
      value.replace(/\s/g, '').toUpperCase() === DEVELOPMENT_DEFAULTS[key].replace(/\s/g, '').toUpperCase()
    ) {
      problems.push(`${key} is the development value: set the shop's own`);
    }
  }
  const vies = env.VIES_API_BASE?.trim();
  if (vies && !vies.startsWith('https://'))
    problems.push('VIES_API_BASE must be https:// in production (a stand-in would confirm any VAT ID)');
  return problems;
}

function assertProductionSettings(env: NodeJS.ProcessEnv): void {
  const problems = productionProblems(env);
  if (problems.length > 0) throw new ProductionConfigError(problems);
}

/** Outside production: which settings run on their published development default. */
function developmentDefaultsInUse(env: NodeJS.ProcessEnv, parsed: Environment): string[] {
  const defaulted = (key: string) => !env[key] || published(env[key]!);
  return [
    ...(env.DATABASE_URL ? [] : ['DATABASE_URL (embedded PGlite)']),
    ...(defaulted('JWT_SECRET') ? ['JWT_SECRET'] : []),
    ...(defaulted('SAVED_SEARCH_ALERTS_SECRET') ? ['SAVED_SEARCH_ALERTS_SECRET'] : []),
    ...(env.PUBLIC_URL?.startsWith('https:') ? [] : ['PUBLIC_URL (http: cookies are not Secure)']),
    ...(defaulted('STRIPE_SECRET_KEY') || env.STRIPE_API_BASE ? ['STRIPE_* (the local stand-in)'] : []),
    ...(env.OIDC_CLIENT_ID ? [] : ['OIDC_* (the local OpenID provider)']),
    ...(env.SMTP_URL ? [] : ['SMTP_URL (the local mailbox)']),
    ...(env.BANK_IBAN ? [] : ['BANK_* (a test bank account)']),
    ...(env.SELLER_VAT_ID ? [] : ['SELLER_* (an invented seller on invoices)']),
    ...(env.VIES_API_BASE ? [] : ['VIES_API_BASE (the local VIES stand-in)']),
    ...((parsed.SEED_DEMO_DATA ?? DEVELOPMENT_DEFAULTS.SEED_DEMO_DATA) ? ['SEED_DEMO_DATA (demo accounts with published passwords)'] : []),
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
