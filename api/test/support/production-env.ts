import { expect } from 'vitest';
import { loadConfig, ProductionConfigError } from '../../src/config.js';

// The configuration tests' production environment, which passes every check: each test breaks one thing.

/** books: the seller settings of a production environment that passes every check. */
export const PRODUCTION_SELLER: NodeJS.ProcessEnv = {
  SELLER_NAME: 'Boat Shop GmbH',
  SELLER_ADDRESS: 'Kaiser-Wilhelm-Straße 12; 20355 Hamburg',
  SELLER_COUNTRY: 'DE',
  SELLER_VAT_ID: 'DE129273398',
  SELLER_TAX_NUMBER: '27/123/45678',
};

/** find: the object storage of uploaded pictures. */
export const PRODUCTION_PICTURES: NodeJS.ProcessEnv = {
  S3_ENDPOINT: 'https://s3.eu-central-1.example',
  S3_BUCKET: 'boatshop-pictures',
  S3_REGION: 'eu-central-1',
  S3_ACCESS_KEY_ID: 'AKIAREALKEY',
  S3_SECRET_ACCESS_KEY: 'a-real-secret-access-key',
};

/** A production environment that passes every check; each test breaks one thing. */
export const PRODUCTION: NodeJS.ProcessEnv = {
  NODE_ENV: 'production',
  DATABASE_URL: 'postgres://boatshop:a-long-random-password@db.internal:5432/boatshop',
  JWT_SECRET: 'x'.repeat(48),
  SAVED_SEARCH_ALERTS_SECRET: 'y'.repeat(48),
  PUBLIC_URL: 'https://shop.example',
  STRIPE_SECRET_KEY: 'sk_live_realsecret',
  STRIPE_PUBLISHABLE_KEY: 'pk_live_realkey',
  STRIPE_WEBHOOK_SECRET: 'whsec_realsecret',
  BANK_ACCOUNT_HOLDER: 'Boat Shop Ltd',
  BANK_IBAN: 'GB82 WEST 1234 5698 7654 32',
  BANK_BIC: 'NWBKGB2L',
  ...PRODUCTION_SELLER,
  ...PRODUCTION_PICTURES,
};

export function productionError(env: NodeJS.ProcessEnv): string {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ProductionConfigError);
    return (error as Error).message;
  }
  throw new Error('loadConfig accepted the environment');
}
