import { Value } from '@sinclair/typebox/value';
import { describe, expect, it } from 'vitest';
import { ProductInputSchema } from './admin-products';
import { OrderBalanceSchema } from './orders';
import { ProductSchema } from './products';
import { enableValueCheck } from './common';

const product = {
  id: '3f1c2b9a-6d4e-4f10-9a2b-5c6d7e8f9a0b',
  name: 'Sloop',
  thumbnailUrl: '/api/images/sloop.svg',
  priceCents: 100,
  descriptionHtml: '<p>A sloop.</p>',
  category: 'sailing-boats',
  createdAt: '2026-11-23T04:00:00.000Z',
  stock: null,
  availability: 'in_stock',
};

const { id: _id, createdAt: _createdAt, stock: _stock, availability: _availability, ...input } = product;

describe('enableValueCheck', () => {
  it("lets Value.Check accept the API's uuids, timestamps and days, and refuse anything else", () => {
    enableValueCheck();
    enableValueCheck(); // twice is harmless

    expect(Value.Check(ProductSchema, product)).toBe(true);
    expect(Value.Check(ProductSchema, { ...product, id: 'not-a-uuid' })).toBe(false);
    expect(Value.Check(ProductSchema, { ...product, createdAt: '23/11/2026' })).toBe(false);
    expect(Value.Check(ProductSchema, { ...product, category: 'dinghies' })).toBe(false);
    expect(Value.Check(ProductSchema, { ...product, stock: 2 })).toBe(true);
    expect(Value.Check(ProductSchema, { ...product, stock: 2.5 })).toBe(false);
    expect(Value.Check(ProductInputSchema, { ...input, stock: null })).toBe(true);
    expect(Value.Check(ProductInputSchema, { ...input, stock: 3 })).toBe(true);
    expect(Value.Check(ProductInputSchema, { ...input, stock: '3' })).toBe(false);
    const balance = { amountCents: 1, dueOn: '2026-12-01', reference: 'RF18', accountHolder: 'Shop', iban: 'DE', bic: 'X', overdue: false };
    expect(Value.Check(OrderBalanceSchema, balance)).toBe(true);
    expect(Value.Check(OrderBalanceSchema, { ...balance, dueOn: '2026-13-45' })).toBe(false);
  });
});
