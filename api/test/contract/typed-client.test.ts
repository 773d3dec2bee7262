import {
  CSRF_COOKIE,
  OrderSummaryListSchema,
  PaymentQuoteSchema,
  ProductListSchema,
  ProductPageSchema,
  ProductSchema,
  enableValueCheck,
  SessionBodySchema,
  UserBodySchema,
  type Product,
  type ProductPage,
  type SessionUser,
} from '@boatshop/contract';
import { createApiClient, isApiError, type ApiClient } from '@boatshop/contract/client';
import { Value } from '@sinclair/typebox/value';
import { afterAll, beforeAll, beforeEach, describe, expect, expectTypeOf, it } from 'vitest';
import { buildTestApp, resetDatabase, type TestApp } from '../helpers/build-test-app.js';
import { insertProduct } from '../helpers/products.js';

// The typed client of @boatshop/contract against the real app: its fetch is `app.inject`, with a
// cookie jar standing in for the browser. What the client's types promise (from the schemas'
// Static<>) is what the API sends at runtime: each answer is checked against its schema.

let app: TestApp;

/** A browser for the client: keeps the cookies the API sets and sends them back. */
function browser(ip = `10.1.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`) {
  const jar = new Map<string, string>();
  const cookies = () => [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
  const requests: string[] = [];

  const fetch = (async (input: string | URL | Request, init: RequestInit = {}) => {
    const url = String(input);
    const method = (init.method ?? 'GET') as 'GET' | 'POST' | 'PUT' | 'DELETE';
    requests.push(`${method} ${url}`);
    const headers: Record<string, string> = { ...(init.headers as Record<string, string>), 'x-forwarded-for': ip };
    if (jar.size > 0) headers.cookie = cookies();
    const response = await app.inject({ method, url, headers, ...(init.body ? { payload: init.body as string } : {}) });
    for (const cookie of response.cookies) {
      if (cookie.value === '' || cookie.maxAge === 0) jar.delete(cookie.name);
      else jar.set(cookie.name, cookie.value);
    }
    const bodyless = response.statusCode === 204 || response.statusCode === 304;
    return new Response(bodyless ? null : response.body, {
      status: response.statusCode,
      headers: Object.entries(response.headers).flatMap(([name, value]) =>
        value === undefined ? [] : [[name, Array.isArray(value) ? value.join(', ') : String(value)] as [string, string]],
      ),
    });
  }) as typeof globalThis.fetch;

  const client: ApiClient = createApiClient({ fetch, cookies });
  return { client, jar, requests };
}

beforeAll(async () => {
  enableValueCheck();
  app = await buildTestApp();
});

beforeEach(() => resetDatabase(app));

afterAll(() => app.close());

describe('the typed client against the real API', () => {
  it('lists, reads and refreshes products with the types the schemas give', async () => {
    const yacht = await insertProduct(app, { category: 'yachts', name: 'Contract Yacht' });
    await insertProduct(app, { category: 'sailing-boats' });
    const { client } = browser();

    const page = await client.products.list({ filterType: 'yachts' });
    expectTypeOf(page).toEqualTypeOf<ProductPage>();
    expect(Value.Check(ProductPageSchema, page)).toBe(true);
    expect(page.data.map((product) => product.name)).toEqual(['Contract Yacht']);
    expect(page.isLastPage).toBe(true);

    const product = await client.products.get(yacht.id);
    expectTypeOf(product).toEqualTypeOf<Product>();
    expect(Value.Check(ProductSchema, product)).toBe(true);
    expect(product).toMatchObject({ id: yacht.id, category: 'yachts', availability: 'in_stock' });

    const refreshed = await client.products.byIds([yacht.id, '00000000-0000-4000-8000-000000000000', 'not-an-id']);
    expect(Value.Check(ProductListSchema, refreshed)).toBe(true);
    expect(refreshed.data.map((found) => found.id)).toEqual([yacht.id]);
  });

  it('pages with the cursor the API hands back, the default limit filled in by the API', async () => {
    for (let index = 0; index < 8; index += 1) await insertProduct(app);
    const { client } = browser();

    const first = await client.products.list();
    const second = await client.products.list({ cursor: first.cursor! });

    expect(first.data).toHaveLength(6);
    expect(second.data).toHaveLength(2);
    expect(second.isLastPage).toBe(true);
  });

  it('turns the API error body into an ApiError with status, code and details', async () => {
    const { client } = browser();

    const missing = await client.products.get('00000000-0000-4000-8000-000000000000').catch((error: unknown) => error);
    expect(isApiError(missing) && { status: missing.status, code: missing.code }).toEqual({ status: 404, code: 'NOT_FOUND' });

    const refused = await client.auth
      .register({ displayName: 'Sandy', email: 'sandy@example.com', password: 'mizzen-mast-at-dawn', confirmPassword: 'other' })
      .catch((error: unknown) => error);
    expect(isApiError(refused) && { status: refused.status, code: refused.code, details: refused.details }).toEqual({
      status: 400,
      code: 'VALIDATION',
      details: ["Passwords don't match!"],
    });
  });

  it('registers, signs out and in with the csrf token it fetched itself, and sees who is signed in', async () => {
    const { client, jar, requests } = browser();

    const registered = await client.auth.register({
      displayName: 'Sandy Shopper',
      email: 'sandy@example.com',
      password: 'mizzen-mast-at-dawn',
      confirmPassword: 'mizzen-mast-at-dawn',
    });
    // No csrf cookie yet: the client asked for the session first, then echoed the cookie it set.
    expect(requests.slice(0, 2)).toEqual(['GET /api/auth/session', 'POST /api/auth/register']);
    expect(jar.has(CSRF_COOKIE)).toBe(true);
    expect(Value.Check(UserBodySchema, registered)).toBe(true);
    expectTypeOf(registered.user).toEqualTypeOf<SessionUser>();

    await expect(client.auth.logout()).resolves.toBeUndefined();
    const afterLogout = await client.auth.session();
    expect(Value.Check(SessionBodySchema, afterLogout)).toBe(true);
    expect(afterLogout.user).toBeNull();

    const signedIn = await client.auth.login({ email: 'sandy@example.com', password: 'mizzen-mast-at-dawn' });
    expect(signedIn.user).toMatchObject({
      email: 'sandy@example.com',
      displayName: 'Sandy Shopper',
      emailVerified: false,
      hasPassword: true,
    });
    expect((await client.auth.session()).user?.id).toBe(registered.user.id);

    const orders = await client.orders.list();
    expect(Value.Check(OrderSummaryListSchema, orders)).toBe(true);
    expect(orders.data).toEqual([]);
  });

  it('quotes a cart for a signed-in shopper', async () => {
    const boat = await insertProduct(app, { price_cents: 2_500_000 });
    const { client } = browser();
    await client.auth.register({
      displayName: 'Quinn Quote',
      email: 'quinn@example.com',
      password: 'mizzen-mast-at-dawn',
      confirmPassword: 'mizzen-mast-at-dawn',
    });

    const quote = await client.payments.quote({ items: [{ productId: boat.id, quantity: 2 }] });

    expect(Value.Check(PaymentQuoteSchema, quote)).toBe(true);
    expect(quote.totalCents).toBe(5_000_000);
  });
});
