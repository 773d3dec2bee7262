import { describe, expect } from 'vitest';
import { insertProduct } from '../../helpers/products.js';
import { it } from '../../support/fixtures.js';

describe('GET /api/vat/products/:id and PUT /api/admin/vat/products/:id', () => {
  it("shows a new product as VAT paid, dealer's own stock", async ({ app }) => {
    const product = await insertProduct(app);
    const response = await app.inject({ url: `/api/vat/products/${product.id}` });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      productId: product.id,
      treatment: 'vat_paid_own_stock',
      label: "VAT paid, dealer's own stock",
      firstUsedOn: null,
      hoursSailed: null,
      lengthCm: null,
    });
  });

  it('answers 404 for an unknown or malformed id', async ({ app }) => {
    expect((await app.inject({ url: '/api/vat/products/00000000-0000-4000-8000-000000000000' })).statusCode).toBe(404);
    expect((await app.inject({ url: '/api/vat/products/nope' })).statusCode).toBe(404);
  });

  it('lets an admin set a new boat with its facts, and shoppers then read them', async ({ app, admin }) => {
    const product = await insertProduct(app);
    const put = await app.inject({
      method: 'PUT',
      url: `/api/admin/vat/products/${product.id}`,
      headers: admin.headers,
      payload: { treatment: 'new_boat', firstUsedOn: '2026-10-01', hoursSailed: 12, lengthCm: 1420 },
    });
    expect(put.statusCode, put.body).toBe(200);
    const read = (await app.inject({ url: `/api/vat/products/${product.id}` })).json();
    expect(read).toMatchObject({ treatment: 'new_boat', firstUsedOn: '2026-10-01', hoursSailed: 12, lengthCm: 1420 });
  });

  it('drops the new-boat facts when the treatment is something else', async ({ app, admin }) => {
    const product = await insertProduct(app);
    const url = `/api/admin/vat/products/${product.id}`;
    await app.inject({ method: 'PUT', url, headers: admin.headers, payload: { treatment: 'new_boat', hoursSailed: 5 } });
    const put = await app.inject({ method: 'PUT', url, headers: admin.headers, payload: { treatment: 'margin_scheme', hoursSailed: 5 } });
    expect(put.json()).toMatchObject({ treatment: 'margin_scheme', label: 'Margin scheme (second-hand)', hoursSailed: null });
  });

  it('refuses shoppers, unknown treatments and impossible days with a 4xx', async ({ app, admin, shopper }) => {
    const product = await insertProduct(app);
    const url = `/api/admin/vat/products/${product.id}`;
    expect((await app.inject({ method: 'PUT', url, headers: shopper.headers, payload: { treatment: 'margin_scheme' } })).statusCode).toBe(
      403,
    );
    const bad = await app.inject({ method: 'PUT', url, headers: admin.headers, payload: { treatment: 'tax_free' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.code).toBeTruthy();
    const day = await app.inject({
      method: 'PUT',
      url,
      headers: admin.headers,
      payload: { treatment: 'new_boat', firstUsedOn: '2026-02-30' },
    });
    expect(day.statusCode).toBe(400);
  });
});

describe('the VAT rates table', () => {
  it('holds the 27 standard rates, and a rate change is a new row from its first day', async ({ app, admin }) => {
    const list = (await app.inject({ url: '/api/admin/vat/rates', headers: admin.headers })).json() as { data: { countryCode: string }[] };
    expect(new Set(list.data.map((rate) => rate.countryCode)).size).toBe(27);
    expect(list.data).toContainEqual({ countryCode: 'DE', rateBasisPoints: 1900, validFrom: '2026-01-01' });

    const change = { countryCode: 'DE', rateBasisPoints: 2000, validFrom: '2027-01-01' };
    const added = await app.inject({ method: 'POST', url: '/api/admin/vat/rates', headers: admin.headers, payload: change });
    expect(added.statusCode, added.body).toBe(201);
    const again = await app.inject({ method: 'POST', url: '/api/admin/vat/rates', headers: admin.headers, payload: change });
    expect(again.statusCode).toBe(409);
    const { standardRateOn } = await import('../../../src/features/vat/vat.repository.js');
    expect(await standardRateOn(app.db, 'DE', '2026-12-31')).toBe(1900);
    expect(await standardRateOn(app.db, 'DE', '2027-01-01')).toBe(2000);
    await app.db.deleteFrom('vat_rates').where('valid_from', '=', '2027-01-01').execute();
  });

  it('refuses a country outside the EU', async ({ app, admin }) => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/admin/vat/rates',
      headers: admin.headers,
      payload: { countryCode: 'CH', rateBasisPoints: 810, validFrom: '2027-01-01' },
    });
    expect(response.statusCode).toBe(400);
  });
});
