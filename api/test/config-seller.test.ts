import { describe, expect, it } from 'vitest';
import { DEVELOPMENT_DEFAULTS, loadConfig, VIES_PRODUCTION_API } from '../src/config.js';
import { PRODUCTION, productionError } from './support/production-env.js';

describe('the seller configuration', () => {
  it('reads the seller and the real VIES in production', () => {
    const config = loadConfig(PRODUCTION);
    expect(config.seller).toEqual({
      name: 'Boat Shop GmbH',
      addressLines: ['Kaiser-Wilhelm-Straße 12', '20355 Hamburg'],
      country: 'DE',
      vatId: 'DE129273398',
      taxNumber: '27/123/45678',
    });
    expect(config.vies.apiBase).toBe(VIES_PRODUCTION_API);
  });

  it('refuses production without a seller, naming each missing setting', () => {
    for (const key of ['SELLER_NAME', 'SELLER_ADDRESS', 'SELLER_COUNTRY', 'SELLER_VAT_ID', 'SELLER_TAX_NUMBER']) {
      expect(productionError({ ...PRODUCTION, [key]: undefined })).toContain(`${key} is missing`);
    }
  });

  it("refuses production on the development seller's values", () => {
    for (const key of ['SELLER_NAME', 'SELLER_ADDRESS', 'SELLER_VAT_ID', 'SELLER_TAX_NUMBER'] as const) {
      expect(productionError({ ...PRODUCTION, [key]: DEVELOPMENT_DEFAULTS[key] })).toContain(`${key} is the development value`);
    }
  });

  it('refuses a VIES address that is not https in production', () => {
    expect(productionError({ ...PRODUCTION, VIES_API_BASE: 'http://127.0.0.1:4030' })).toContain('VIES_API_BASE must be https://');
  });

  it('refuses a seller country outside the EU and a malformed VAT ID anywhere', () => {
    expect(() => loadConfig({ SELLER_COUNTRY: 'CH' })).toThrow('SELLER_COUNTRY must be a member state code');
    expect(() => loadConfig({ SELLER_VAT_ID: '123' })).toThrow('SELLER_VAT_ID must be a VAT ID');
  });

  it('outside production uses the invented seller and the local VIES stand-in, and says so', () => {
    const config = loadConfig({ NODE_ENV: 'development', DEV_VIES_PORT: '4999' });
    expect(config.seller.vatId).toBe(DEVELOPMENT_DEFAULTS.SELLER_VAT_ID);
    expect(config.vies.apiBase).toBe('http://127.0.0.1:4999');
    expect(config.developmentDefaults).toContain('SELLER_* (an invented seller on invoices)');
  });
});
