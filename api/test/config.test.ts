import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ConfigError,
  DEV_BANK,
  DEV_JWT_SECRET,
  DEV_OIDC,
  DEV_STRIPE,
  DEVELOPMENT_DEFAULTS,
  developmentWarning,
  loadConfig,
  PUBLISHED_DEV_VALUES,
} from '../src/config.js';
import { PRODUCTION, productionError } from './support/production-env.js';

describe('loadConfig: TRUST_PROXY', () => {
  it('defaults to the loopback addresses', () => {
    expect(loadConfig({}).trustProxy).toEqual(['127.0.0.1', '::1']);
  });

  it('reads addresses, CIDR ranges and proxy-addr range names; "none" trusts no one', () => {
    expect(loadConfig({ TRUST_PROXY: '172.30.80.10, 10.0.0.0/8,fd00::/8, loopback' }).trustProxy).toEqual([
      '172.30.80.10',
      '10.0.0.0/8',
      'fd00::/8',
      'loopback',
    ]);
    expect(loadConfig({ TRUST_PROXY: 'none' }).trustProxy).toEqual([]);
  });

  it('refuses "trust everyone" and anything that is not an address', () => {
    for (const value of ['true', '*', 'proxy.internal', '10.0.0.1/abc']) {
      expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(/TRUST_PROXY/);
    }
  });
});

describe('loadConfig: catalogue cache', () => {
  it('is on with a 60 s TTL by default; CATALOG_CACHE_TTL_MS=0 turns it off', () => {
    expect(loadConfig({}).catalogCache).toEqual({ ttlMs: 60_000, maxEntries: 1000 });
    expect(loadConfig({ CATALOG_CACHE_TTL_MS: '0', CATALOG_CACHE_MAX_ENTRIES: '50' }).catalogCache).toEqual({ ttlMs: 0, maxEntries: 50 });
    expect(() => loadConfig({ CATALOG_CACHE_TTL_MS: '-1' })).toThrow(/CATALOG_CACHE_TTL_MS/);
  });

  it('counts the search from the facet cells by default; SEARCH_FACET_CELLS=false counts from products', () => {
    expect(loadConfig({}).searchFacetCells).toBe(true);
    expect(loadConfig({ SEARCH_FACET_CELLS: 'false' }).searchFacetCells).toBe(false);
  });
});

describe('loadConfig: database faults and load shedding', () => {
  it('gives up on the database within seconds by default', () => {
    const config = loadConfig({});
    expect(config.database).toEqual({
      poolSize: 10,
      connectTimeoutMs: 2_000,
      statementTimeoutMs: 5_000,
      maxWaiting: 100,
      retryAfterSeconds: 5,
      heartbeatMs: 5_000,
    });
    expect(config.loadShedding).toEqual({ maxEventLoopDelayMs: 1_000, maxEventLoopUtilization: 0, retryAfterSeconds: 10 });
    expect(config.housekeeping).toEqual({ sessionGraceDays: 7, paymentEventRetentionDays: 30 });
  });

  it('reads each setting from the environment', () => {
    const config = loadConfig({
      DATABASE_POOL_SIZE: '20',
      DATABASE_CONNECT_TIMEOUT_MS: '1500',
      DATABASE_STATEMENT_TIMEOUT_MS: '0',
      DATABASE_MAX_WAITING: '0',
      DATABASE_RETRY_AFTER_SECONDS: '2',
      DATABASE_HEARTBEAT_MS: '1000',
      MAX_EVENT_LOOP_DELAY_MS: '0',
      MAX_EVENT_LOOP_UTILIZATION: '0.95',
      LOAD_SHEDDING_RETRY_AFTER_SECONDS: '3',
      PURGE_SESSIONS_AFTER_DAYS: '1',
      PURGE_PAYMENT_EVENTS_AFTER_DAYS: '90',
    });
    expect(config.database).toEqual({
      poolSize: 20,
      connectTimeoutMs: 1_500,
      statementTimeoutMs: 0,
      maxWaiting: 0,
      retryAfterSeconds: 2,
      heartbeatMs: 1_000,
    });
    expect(config.loadShedding).toEqual({ maxEventLoopDelayMs: 0, maxEventLoopUtilization: 0.95, retryAfterSeconds: 3 });
    expect(config.housekeeping).toEqual({ sessionGraceDays: 1, paymentEventRetentionDays: 90 });
  });

  it('refuses a utilization outside 0..1 and a timeout that is not a whole number', () => {
    expect(() => loadConfig({ MAX_EVENT_LOOP_UTILIZATION: '95' })).toThrow(
      'MAX_EVENT_LOOP_UTILIZATION must be a number from 0 to 1, got "95"',
    );
    expect(() => loadConfig({ DATABASE_STATEMENT_TIMEOUT_MS: '5s' })).toThrow(
      'DATABASE_STATEMENT_TIMEOUT_MS must be a non-negative integer',
    );
  });
});

describe('loadConfig: NODE_ENV=production refuses unsafe settings', () => {
  it('keeps uploaded pictures in the configured bucket, and refuses missing S3 settings or local disk', () => {
    expect(loadConfig(PRODUCTION).pictures.storage).toEqual({
      kind: 's3',
      endpoint: 'https://s3.eu-central-1.example',
      bucket: 'boatshop-pictures',
      region: 'eu-central-1',
      accessKeyId: 'AKIAREALKEY',
      secretAccessKey: 'a-real-secret-access-key',
    });
    for (const key of ['S3_BUCKET', 'S3_REGION', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY']) {
      expect(productionError({ ...PRODUCTION, [key]: ' ' })).toContain(`${key} is missing`);
    }
    expect(productionError({ ...PRODUCTION, PICTURE_STORAGE: 'local' })).toContain('PICTURE_STORAGE must be s3 in production');
    // Outside production the embedded default is the local disk.
    expect(loadConfig({ NODE_ENV: 'development' }).pictures.storage).toMatchObject({ kind: 'local' });
  });

  it('starts with every secret set to a value of its own, on Stripe and https', () => {
    const config = loadConfig(PRODUCTION);
    expect(config.isProduction).toBe(true);
    expect(config.payments).toMatchObject({ provider: 'stripe', secretKey: 'sk_live_realsecret' });
    expect(config.seedDemoData).toBe(false);
    expect(config.developmentDefaults).toEqual([]);
    expect(developmentWarning(config)).toBeNull();
  });

  it.each([
    'DATABASE_URL',
    'JWT_SECRET',
    'PUBLIC_URL',
    'STRIPE_SECRET_KEY',
    'STRIPE_PUBLISHABLE_KEY',
    'STRIPE_WEBHOOK_SECRET',
    'SAVED_SEARCH_ALERTS_SECRET',
  ])('names %s when it is missing or blank', (key) => {
    expect(productionError({ ...PRODUCTION, [key]: undefined })).toContain(`${key} is missing`);
    expect(productionError({ ...PRODUCTION, [key]: '  ' })).toContain(`${key} is missing`);
  });

  it.each([
    ['JWT_SECRET', DEV_JWT_SECRET],
    ['JWT_SECRET', 'compose-local-secret-change-me-before-any-real-use'],
    ['SAVED_SEARCH_ALERTS_SECRET', DEVELOPMENT_DEFAULTS.SAVED_SEARCH_ALERTS_SECRET],
    ['STRIPE_SECRET_KEY', DEV_STRIPE.secretKey],
    ['STRIPE_PUBLISHABLE_KEY', DEV_STRIPE.publishableKey],
    ['STRIPE_WEBHOOK_SECRET', DEV_STRIPE.webhookSecret],
    ['STRIPE_WEBHOOK_SECRET', 'whsec_test_standin'],
  ])('names %s when it is the published development value %s', (key, value) => {
    expect(productionError({ ...PRODUCTION, [key]: value })).toContain(`${key} is a published development value`);
  });

  it('refuses the development OpenID client and a client without its secret', () => {
    expect(productionError({ ...PRODUCTION, OIDC_CLIENT_ID: DEV_OIDC.clientId, OIDC_CLIENT_SECRET: 'whatever' })).toContain(
      'OIDC_CLIENT_ID is the development client',
    );
    expect(productionError({ ...PRODUCTION, OIDC_CLIENT_ID: 'real.apps.googleusercontent.com' })).toContain(
      'OIDC_CLIENT_SECRET is missing',
    );
    expect(
      productionError({ ...PRODUCTION, OIDC_CLIENT_ID: 'real.apps.googleusercontent.com', OIDC_CLIENT_SECRET: DEV_OIDC.clientSecret }),
    ).toContain('OIDC_CLIENT_SECRET is a published development value');
    expect(loadConfig({ ...PRODUCTION, OIDC_CLIENT_ID: 'real.apps.googleusercontent.com', OIDC_CLIENT_SECRET: 'real' }).oidc).toMatchObject(
      {
        issuer: 'https://accounts.google.com',
      },
    );
  });

  it('refuses an http PUBLIC_URL: the session cookies must be Secure', () => {
    expect(productionError({ ...PRODUCTION, PUBLIC_URL: 'http://shop.example' })).toContain('PUBLIC_URL must be https://');
    expect(productionError({ ...PRODUCTION, PUBLIC_URL: 'shop.example' })).toContain('PUBLIC_URL is not a URL');
  });

  it('refuses a short JWT secret, a published database password, PGlite and the payment stand-in', () => {
    expect(productionError({ ...PRODUCTION, JWT_SECRET: 'short' })).toContain('JWT_SECRET must be at least 32 characters');
    expect(productionError({ ...PRODUCTION, DATABASE_URL: 'postgres://boatshop:boatshop-local@db:5432/boatshop' })).toContain(
      'DATABASE_URL has a published development password',
    );
    expect(productionError({ ...PRODUCTION, DATABASE_URL: 'memory://' })).toContain('DATABASE_URL must be a postgres:// URL');
    expect(productionError({ ...PRODUCTION, STRIPE_API_BASE: 'http://127.0.0.1:4020' })).toContain('STRIPE_API_BASE must not be set');
    expect(productionError({ ...PRODUCTION, STRIPE_SECRET_KEY: PRODUCTION.STRIPE_PUBLISHABLE_KEY })).toContain(
      'STRIPE_SECRET_KEY must be a Stripe secret key',
    );
    expect(productionError({ ...PRODUCTION, SEED_DEMO_DATA: 'true' })).toContain('SEED_DEMO_DATA must be off');
  });

  it("refuses missing, development or invalid bank details (where shoppers transfer a deposit order's balance)", () => {
    for (const key of ['BANK_ACCOUNT_HOLDER', 'BANK_IBAN', 'BANK_BIC']) {
      expect(productionError({ ...PRODUCTION, [key]: undefined })).toContain(`${key} is missing`);
    }
    expect(productionError({ ...PRODUCTION, BANK_IBAN: 'DE89 3704 0044 0532 0130 00' })).toContain('BANK_IBAN is the development value');
    expect(productionError({ ...PRODUCTION, BANK_BIC: 'cobadeffxxx' })).toContain('BANK_BIC is the development value');
    expect(productionError({ ...PRODUCTION, BANK_ACCOUNT_HOLDER: DEV_BANK.accountHolder })).toContain(
      'BANK_ACCOUNT_HOLDER is the development value',
    );
    expect(productionError({ ...PRODUCTION, BANK_IBAN: 'GB82 WEST 1234 5698 7654 33' })).toContain('BANK_IBAN is not a valid IBAN');
    expect(productionError({ ...PRODUCTION, BANK_BIC: 'NOTABIC' })).toContain('BANK_BIC is not a valid BIC');
    expect(loadConfig(PRODUCTION).deposits).toMatchObject({
      bankIban: 'GB82WEST12345698765432',
      bankBic: 'NWBKGB2L',
      bankAccountHolder: 'Boat Shop Ltd',
    });
  });

  it('the server exits with code 1 and names the variables, before opening anything', () => {
    const root = path.resolve(import.meta.dirname, '..');
    const result = spawnSync(path.join(root, '../node_modules/.bin/tsx'), ['src/server.ts'], {
      cwd: root,
      env: { PATH: process.env.PATH, NODE_ENV: 'production', JWT_SECRET: DEV_JWT_SECRET, PUBLIC_URL: 'http://shop.example' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('Refusing to start with NODE_ENV=production');
    expect(result.stderr).toContain('DATABASE_URL is missing');
    expect(result.stderr).toContain('JWT_SECRET is a published development value');
    expect(result.stderr).toContain('PUBLIC_URL must be https://');
  }, 60_000);

  it('lists every problem at once', () => {
    const message = productionError({ NODE_ENV: 'production' });
    for (const key of [
      'DATABASE_URL',
      'JWT_SECRET',
      'PUBLIC_URL',
      'STRIPE_SECRET_KEY',
      'STRIPE_PUBLISHABLE_KEY',
      'STRIPE_WEBHOOK_SECRET',
    ]) {
      expect(message).toContain(`${key} is missing`);
    }
  });
});

describe('loadConfig: deposit settings', () => {
  it('defaults to the card limit of 999.999,99 €, 10 %, 14 days and a valid test account', () => {
    expect(loadConfig({}).deposits).toEqual({
      cardLimitCents: 99_999_999,
      percent: 10,
      categories: [],
      balanceDueDays: 14,
      bankAccountHolder: DEV_BANK.accountHolder,
      bankIban: DEV_BANK.iban,
      bankBic: DEV_BANK.bic,
    });
  });

  it('reads the environment and refuses nonsense at start', () => {
    expect(
      loadConfig({
        CARD_PAYMENT_LIMIT_CENTS: '5000000',
        DEPOSIT_PERCENT: '20',
        DEPOSIT_CATEGORIES: 'yachts, sailing-boats',
        BALANCE_DUE_DAYS: '30',
      }).deposits,
    ).toMatchObject({ cardLimitCents: 5_000_000, percent: 20, categories: ['yachts', 'sailing-boats'], balanceDueDays: 30 });
    expect(() => loadConfig({ DEPOSIT_PERCENT: '0' })).toThrow(/DEPOSIT_PERCENT/);
    expect(() => loadConfig({ DEPOSIT_PERCENT: '101' })).toThrow(/DEPOSIT_PERCENT/);
    expect(() => loadConfig({ CARD_PAYMENT_LIMIT_CENTS: '50' })).toThrow(/CARD_PAYMENT_LIMIT_CENTS/);
    expect(() => loadConfig({ BANK_IBAN: 'DE89370400440532013001' })).toThrow(
      'BANK_IBAN must be a valid IBAN, got "DE89370400440532013001"',
    );
    expect(() => loadConfig({ BANK_BIC: 'X' })).toThrow(/BANK_BIC/);
  });
});

describe('loadConfig: outside production', () => {
  it('NODE_ENV unset is development, runs on the defaults and says so loudly', () => {
    const config = loadConfig({});
    expect(config.isProduction).toBe(false);
    expect(config.jwtSecret).toBe(DEV_JWT_SECRET);
    expect(config.developmentDefaults).toEqual(
      expect.arrayContaining(['DATABASE_URL (embedded PGlite)', 'JWT_SECRET', 'STRIPE_* (the local stand-in)']),
    );
    const warning = developmentWarning(config)!;
    expect(warning).toMatch(/^NOT PRODUCTION \(NODE_ENV=development\): development defaults are in use for /);
    expect(warning).toContain('JWT_SECRET');
  });

  it('a secret of your own is not reported as a default', () => {
    expect(loadConfig({ JWT_SECRET: 'y'.repeat(40) }).developmentDefaults).not.toContain('JWT_SECRET');
  });
});

describe('loadConfig: read through one schema', () => {
  function configError(env: NodeJS.ProcessEnv): ConfigError {
    try {
      loadConfig(env);
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return error as ConfigError;
    }
    throw new Error('loadConfig accepted the environment');
  }

  it('names the variable, what it must be and what it got', () => {
    expect(configError({ API_PORT: 'abc' }).message).toBe('API_PORT must be an integer from 0 to 65535, got "abc"');
    expect(configError({ API_PORT: '70000' }).message).toBe('API_PORT must be an integer from 0 to 65535, got "70000"');
    expect(configError({ JOBS_ENABLED: 'maybe' }).message).toBe('JOBS_ENABLED must be true or false, got "maybe"');
    expect(configError({ LOG_LEVEL: 'loud' }).message).toContain('LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent');
    expect(configError({ DATABASE_POOL_SIZE: '0' }).message).toBe('DATABASE_POOL_SIZE must be an integer of at least 1, got "0"');
  });

  it('lists every bad variable at once, so an operator fixes them in one go', () => {
    const error = configError({ API_PORT: 'abc', DEPOSIT_PERCENT: '0', TRUST_PROXY: '*', BANK_BIC: 'X' });
    expect(error.problems).toEqual([
      'API_PORT must be an integer from 0 to 65535, got "abc"',
      'TRUST_PROXY must be "none" or comma-separated IP addresses or CIDR ranges, got "*"',
      'DEPOSIT_PERCENT must be an integer from 1 to 100, got "0"',
      'BANK_BIC must be a valid BIC, got "X"',
    ]);
    expect(error.message).toMatch(/^Invalid settings:\n {2}- API_PORT/);
  });

  it('reads blank as unset and numbers and booleans from their usual spellings', () => {
    const config = loadConfig({ API_PORT: ' ', JOBS_ENABLED: 'No', SEED_DEMO_DATA: 'YES', MAX_EVENT_LOOP_UTILIZATION: '0.5' });
    expect(config.port).toBe(4000);
    expect(config.jobs.enabled).toBe(false);
    expect(config.seedDemoData).toBe(true);
    expect(config.loadShedding.maxEventLoopUtilization).toBe(0.5);
  });

  it('takes the development defaults from DEVELOPMENT_DEFAULTS outside production only, and each published secret is refused in production', () => {
    const development = loadConfig({});
    expect(development.jwtSecret).toBe(DEVELOPMENT_DEFAULTS.JWT_SECRET);
    expect(development.publicUrl).toBe(DEVELOPMENT_DEFAULTS.PUBLIC_URL);
    expect(development.payments).toMatchObject({ provider: 'local', secretKey: DEVELOPMENT_DEFAULTS.STRIPE_SECRET_KEY });
    expect(development.oidc).toMatchObject({ clientId: DEVELOPMENT_DEFAULTS.OIDC_CLIENT_ID });
    expect(development.deposits.bankIban).toBe(DEVELOPMENT_DEFAULTS.BANK_IBAN);
    const production = loadConfig(PRODUCTION);
    expect(production.oidc).toBeNull();
    expect(production.mail).toBeNull();
    for (const key of [
      'JWT_SECRET',
      'STRIPE_SECRET_KEY',
      'STRIPE_PUBLISHABLE_KEY',
      'STRIPE_WEBHOOK_SECRET',
      'OIDC_CLIENT_ID',
      'OIDC_CLIENT_SECRET',
    ] as const) {
      expect(PUBLISHED_DEV_VALUES.has(DEVELOPMENT_DEFAULTS[key])).toBe(true);
    }
  });
});

// books: the seller named on every invoice, and the VIES service.
