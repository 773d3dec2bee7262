import { type PicturesConfig } from './features/pictures/pictures-config.js';

// The API's configuration types and the development defaults (loadConfig in config.ts fills them).

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
