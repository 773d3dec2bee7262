import { afterEach, beforeEach, describe, expect, expectTypeOf, it, vi } from 'vitest';
import { ApiError, createApiClient, isApiError, type ApiClient } from './client';
import type { AdminOrderPage, Order, OrderSummary, Product, ProductPage, SessionUser } from './index';

interface Call {
  url: string;
  init: RequestInit;
}

let calls: Call[] = [];

/** Stands in for the network: records each request and answers with what the test queued. */
function fakeFetch(...responders: ((call: Call) => Response | Promise<Response>)[]): typeof fetch {
  const queue = [...responders];
  return ((url: string, init: RequestInit) => {
    const call = { url, init };
    calls.push(call);
    const next = queue.shift();
    if (!next) throw new Error(`unexpected request ${url}`);
    return Promise.resolve(next(call));
  }) as typeof fetch;
}

const json = (status: number, body: unknown) => () =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const noContent = () => new Response(null, { status: 204 });

function clientWith(...responders: ((call: Call) => Response | Promise<Response>)[]): ApiClient {
  return createApiClient({ fetch: fakeFetch(...responders) });
}

function clearCookies() {
  for (const cookie of document.cookie.split(';')) {
    const name = cookie.split('=')[0]?.trim();
    if (name) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
  }
}

const PRODUCT_ID = '3f1c2b9a-6d4e-4f10-9a2b-5c6d7e8f9a0b';

beforeEach(() => {
  calls = [];
  clearCookies();
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('the typed client', () => {
  it('GETs JSON from /api with the query string and same-origin cookies, leaving out unset values', async () => {
    const client = clientWith(json(200, { data: [], cursor: null, isLastPage: true }));

    const page = await client.products.list({ filterType: 'yachts', q: undefined, available: true, limit: 6 });

    expect(page).toEqual({ data: [], cursor: null, isLastPage: true });
    expect(calls[0]?.url).toBe('/api/products?filterType=yachts&available=true&limit=6');
    expect(calls[0]?.init.method).toBe('GET');
    expect(calls[0]?.init.credentials).toBe('same-origin');
    expect(new Headers(calls[0]?.init.headers).get('accept')).toBe('application/json');
    expect(new Headers(calls[0]?.init.headers).has('x-csrf-token')).toBe(false);
    expect(calls[0]?.init.body).toBeUndefined();
  });

  it('puts path parameters into the path, encoded', async () => {
    const client = clientWith(json(200, {}), json(200, {}));

    await client.products.get('a/b c');
    await client.admin.orders.get(PRODUCT_ID);

    expect(calls.map((call) => call.url)).toEqual(['/api/products/a%2Fb%20c', `/api/admin/orders/${PRODUCT_ID}`]);
  });

  it('takes another base URL and fetch', async () => {
    const fetch = vi.fn(json(200, { user: null }));
    const client = createApiClient({ baseUrl: 'https://shop.example/api/', fetch: fetch as unknown as typeof globalThis.fetch });

    await client.auth.session();

    expect(fetch).toHaveBeenCalledWith('https://shop.example/api/auth/session', expect.objectContaining({ method: 'GET' }));
  });

  it('uses the global fetch by default, looked up at call time', async () => {
    const client = createApiClient();
    vi.stubGlobal('fetch', fakeFetch(json(200, { data: [] })));

    await expect(client.orders.list()).resolves.toEqual({ data: [] });
    expect(calls[0]?.url).toBe('/api/orders');
  });

  it('sends a JSON body with the csrf cookie echoed in x-csrf-token on state-changing requests', async () => {
    document.cookie = 'csrf=token-from-cookie; path=/';
    const client = clientWith(json(201, { id: 'p1' }), noContent);

    const created = await client.admin.products.create({
      name: 'Sloop',
      thumbnailUrl: '/api/images/sloop.svg',
      priceCents: 100,
      descriptionHtml: '',
      category: 'sailing-boats',
    });
    const removed = await client.admin.products.remove('p1');

    expect(created).toEqual({ id: 'p1' });
    expect(removed).toBeUndefined();
    expect(calls[0]?.init.method).toBe('POST');
    const headers = new Headers(calls[0]?.init.headers);
    expect(headers.get('x-csrf-token')).toBe('token-from-cookie');
    expect(headers.get('content-type')).toBe('application/json');
    expect(JSON.parse(String(calls[0]?.init.body))).toMatchObject({ name: 'Sloop', priceCents: 100 });
    expect(calls[1]?.init.method).toBe('DELETE');
    expect(calls[1]?.url).toBe('/api/admin/products/p1');
    expect(new Headers(calls[1]?.init.headers).get('x-csrf-token')).toBe('token-from-cookie');
    expect(new Headers(calls[1]?.init.headers).has('content-type')).toBe(false);
  });

  it('reads the csrf token from the cookies option where there is no document cookie to read', async () => {
    const client = createApiClient({ fetch: fakeFetch(noContent), cookies: () => 'session=s; csrf=from-option' });

    await client.auth.logout();

    expect(new Headers(calls[0]?.init.headers).get('x-csrf-token')).toBe('from-option');
  });

  it('fetches the session first when the csrf cookie is missing, then echoes the cookie it set', async () => {
    const client = clientWith(
      () => {
        document.cookie = 'csrf=fresh-token; path=/';
        return json(200, { user: null })();
      },
      json(200, { user: {} }),
    );

    await client.auth.login({ email: 'a@b.example', password: 'secret' });

    expect(calls.map((call) => call.url)).toEqual(['/api/auth/session', '/api/auth/login']);
    expect(new Headers(calls[1]?.init.headers).get('x-csrf-token')).toBe('fresh-token');
  });

  it("turns the API's error body into an ApiError with status, code, message and details", async () => {
    document.cookie = 'csrf=t; path=/';
    const client = clientWith(
      json(400, { error: { code: 'VALIDATION', message: 'Invalid registration', details: ["Passwords don't match!"] } }),
    );

    const error = await client.auth
      .register({ displayName: 'A', email: 'a@b.example', password: 'x', confirmPassword: 'y' })
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ApiError);
    expect(isApiError(error)).toBe(true);
    expect(error).toMatchObject({ status: 400, code: 'VALIDATION', message: 'Invalid registration', details: ["Passwords don't match!"] });
  });

  it('keeps extra fields of an error body such as the new total of PRICES_CHANGED', async () => {
    document.cookie = 'csrf=t; path=/';
    const client = clientWith(json(409, { error: { code: 'PRICES_CHANGED', message: 'Prices changed', totalCents: 4200 } }));

    const error = await client.payments.quote({ items: [{ productId: PRODUCT_ID, quantity: 1 }] }).catch((e: unknown) => e);

    expect(isApiError(error) && error.body?.totalCents).toBe(4200);
  });

  it("names a 4xx without the API's shape 'Bad request' and a 5xx 'Bad response'", async () => {
    const client = clientWith(
      () => new Response('<html>nope</html>', { status: 404 }),
      () => new Response('Bad Gateway', { status: 502 }),
    );

    await expect(client.products.get('x')).rejects.toMatchObject({ status: 404, code: 'BAD_REQUEST', message: 'Bad request' });
    await expect(client.products.list()).rejects.toMatchObject({ status: 502, code: 'BAD_RESPONSE', message: 'Bad response' });
  });

  it("reports a failed connection as 'Network error' with status 0", async () => {
    const client = clientWith(() => {
      throw new TypeError('fetch failed');
    });

    await expect(client.products.list()).rejects.toMatchObject({ status: 0, code: 'NETWORK_ERROR', message: 'Network error' });
  });

  it('aborts after the time-out and says so', async () => {
    vi.useFakeTimers();
    const client = clientWith(hangUntilAborted);

    const pending = client.products.list({}, { timeoutMs: 50 }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(50);

    expect(await pending).toMatchObject({ status: 0, code: 'TIMEOUT', message: 'Request timed out' });
  });

  it("reports the caller's abort as 'Request aborted'", async () => {
    const client = clientWith(hangUntilAborted);
    const controller = new AbortController();

    const pending = client.products.get(PRODUCT_ID, { signal: controller.signal }).catch((e: unknown) => e);
    controller.abort();

    expect(await pending).toMatchObject({ status: 0, code: 'ABORTED', message: 'Request aborted' });
  });

  it('asks for cart products in chunks of 100 uuids, leaving out duplicates and ids that are no uuid', async () => {
    const ids = Array.from({ length: 150 }, (_, index) => `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`);
    const client = createApiClient({
      fetch: ((url: string) => {
        calls.push({ url, init: {} });
        const asked = new URL(url, 'http://x').searchParams.get('ids')!.split(',');
        return Promise.resolve(json(200, { data: asked.slice(0, 2).map((id) => ({ id })) })());
      }) as typeof fetch,
    });

    const { data } = await client.products.byIds([...ids, ids[0]!, 'not-a-uuid']);

    expect(calls).toHaveLength(2);
    expect(new URL(calls[0]!.url, 'http://x').searchParams.get('ids')!.split(',')).toHaveLength(100);
    expect(new URL(calls[1]!.url, 'http://x').searchParams.get('ids')!.split(',')).toHaveLength(50);
    expect(data.map((product) => product.id)).toEqual([ids[0], ids[1], ids[100], ids[101]]);
    expect(await client.products.byIds(['nope'])).toEqual({ data: [] });
    expect(calls).toHaveLength(2);
  });

  it('sends the admin order actions to their paths, deliver with an empty body', async () => {
    document.cookie = 'csrf=t; path=/';
    const client = clientWith(json(200, {}), json(200, {}), json(200, {}), json(200, {}), json(200, {}));

    await client.admin.orders.ship(PRODUCT_ID, { carrier: 'DHL' });
    await client.admin.orders.deliver(PRODUCT_ID);
    await client.admin.orders.cancel(PRODUCT_ID, { deposit: 'keep' });
    await client.admin.orders.refund(PRODUCT_ID, { amountCents: 100, idempotencyKey: 'key-12345' });
    await client.admin.unmatchedPayments.resolve(PRODUCT_ID);

    expect(calls.map((call) => `${call.init.method} ${call.url} ${String(call.init.body)}`)).toEqual([
      `POST /api/admin/orders/${PRODUCT_ID}/ship {"carrier":"DHL"}`,
      `POST /api/admin/orders/${PRODUCT_ID}/deliver {}`,
      `POST /api/admin/orders/${PRODUCT_ID}/cancel {"deposit":"keep"}`,
      `POST /api/admin/orders/${PRODUCT_ID}/refund {"amountCents":100,"idempotencyKey":"key-12345"}`,
      `POST /api/admin/unmatched-payments/${PRODUCT_ID}/resolve {}`,
    ]);
  });
});

describe('isApiError', () => {
  it("recognises another copy's ApiError by its shape, not by its class", () => {
    // What an ApiError thrown by the shell's bundled copy of the client looks like to a remote's copy.
    class OtherCopyApiError extends Error {
      readonly status = 409;
      readonly code = 'PRICES_CHANGED';
      readonly details: string[] = [];
      readonly body = null;
      override readonly name = 'ApiError';
    }
    const branded = Object.defineProperty(new Error('x'), Symbol.for('@boatshop/contract/ApiError'), { value: true });

    expect(isApiError(new OtherCopyApiError('Prices changed'))).toBe(true);
    expect(isApiError(branded)).toBe(true);
    expect(isApiError(new ApiError({ status: 0, code: 'NETWORK_ERROR', message: 'Network error' }))).toBe(true);
  });

  it('refuses what merely looks alike', () => {
    expect(isApiError(new Error('ApiError'))).toBe(false);
    expect(isApiError({ name: 'ApiError', status: '400', code: 'X', message: 'm', details: [] })).toBe(false);
    expect(isApiError({ name: 'TypeError', status: 400, code: 'X', message: 'm', details: [] })).toBe(false);
    expect(isApiError(null)).toBe(false);
    expect(isApiError('ApiError')).toBe(false);
  });
});

describe('types derived from the schemas', () => {
  const client = createApiClient({ fetch: fakeFetch() });

  it('answers with the Static<> types of the response schemas', () => {
    expectTypeOf(client.products.list).returns.resolves.toEqualTypeOf<ProductPage>();
    expectTypeOf(client.products.get).returns.resolves.toEqualTypeOf<Product>();
    expectTypeOf(client.products.byIds).returns.resolves.toEqualTypeOf<{ data: Product[] }>();
    expectTypeOf(client.orders.list).returns.resolves.toEqualTypeOf<{ data: OrderSummary[] }>();
    expectTypeOf(client.orders.get).returns.resolves.toEqualTypeOf<Order>();
    expectTypeOf(client.auth.session).returns.resolves.toEqualTypeOf<{ user: SessionUser | null }>();
    expectTypeOf(client.auth.logout).returns.resolves.toEqualTypeOf<void>();
    expectTypeOf(client.admin.orders.list).returns.resolves.toEqualTypeOf<AdminOrderPage>();
  });

  it('takes the request types of the request schemas, defaults optional', () => {
    expectTypeOf(client.products.list).parameter(0).toEqualTypeOf<
      | {
          filterType?: 'sailing-boats' | 'yachts';
          q?: string;
          available?: boolean;
          cursor?: string;
          limit?: number;
        }
      | undefined
    >();
    expectTypeOf(client.auth.login).parameter(0).toEqualTypeOf<{ email: string; password: string }>();
    // Compiled, never run: the type check is the test.
    const wrongCalls = () => [
      // @ts-expect-error a category the schema does not list
      client.products.list({ filterType: 'dinghies' }),
      // @ts-expect-error a body field the schema does not have
      client.payments.confirm({ orderId: PRODUCT_ID, extra: 1 }),
      // @ts-expect-error a required body field left out
      client.admin.orders.refund(PRODUCT_ID, { amountCents: 100 }),
    ];
    expectTypeOf(wrongCalls).toBeFunction();
  });
});

function hangUntilAborted(call: Call): Promise<Response> {
  return new Promise((_resolve, reject) => {
    call.init.signal?.addEventListener('abort', () => reject(new DOMException('The operation was aborted.', 'AbortError')));
  });
}
