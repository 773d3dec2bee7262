import { EU_COUNTRIES, MAX_PAYMENT_CENTS, MIN_PAYMENT_CENTS } from '@boatshop/contract/constants';
import { FormatRegistry, Type, type Static, type TInteger, type TOptional, type TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { electronicFormatIBAN, isValidBIC, isValidIBAN } from 'ibantools';
import path from 'node:path';
import { loadPicturesConfig } from './features/pictures/pictures-config.js';

import { assertProductionSettings, developmentDefaultsInUse } from './config-production.js';
import { isTrustedProxyList, readTrustedProxies } from './config-proxies.js';
import {
  DEVELOPMENT_DEFAULTS,
  DEV_STRIPE,
  VIES_PRODUCTION_API,
  type Config,
  type DepositsConfig,
  type LogLevel,
  type MailConfig,
  type OidcConfig,
  type PaymentsConfig,
} from './config-types.js';

export * from './config-types.js';
export * from './config-production.js';
export { DEFAULT_TRUSTED_PROXIES } from './config-proxies.js';
// Every environment setting the API reads, parsed once through one TypeBox schema
// (EnvironmentSchema) into one typed object. Other features add their keys to the schema rather
// than reading process.env themselves. The types and development defaults are in config-types.ts,
// the production checks in config-production.ts; both are exported from here too.

const API_ROOT = path.resolve(import.meta.dirname, '..');

const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

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

export const TRUE_WORDS = ['1', 'true', 'yes'];
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
