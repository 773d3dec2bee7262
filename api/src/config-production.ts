import { electronicFormatIBAN, isValidBIC, isValidIBAN } from 'ibantools';
import { picturesProductionProblems } from './features/pictures/pictures-config.js';

import { TRUE_WORDS, type Environment } from './config.js';
import {
  DEVELOPMENT_DEFAULTS,
  DEV_BANK,
  DEV_JWT_SECRET,
  DEV_OIDC,
  DEV_STRIPE,
  MIN_ALERTS_SECRET_LENGTH,
  MIN_METRICS_TOKEN_LENGTH,
  type Config,
} from './config-types.js';

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

export function assertProductionSettings(env: NodeJS.ProcessEnv): void {
  const problems = productionProblems(env);
  if (problems.length > 0) throw new ProductionConfigError(problems);
}

/** Outside production: which settings run on their published development default. */
export function developmentDefaultsInUse(env: NodeJS.ProcessEnv, parsed: Environment): string[] {
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
