import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, api, apiFetch } from './api-client';

interface Call {
  url: string;
  init: RequestInit;
}

let calls: Call[] = [];

/** Stands in for the network: records each request and answers with what the test queued. */
function answerWith(...responders: ((call: Call) => Response | Promise<Response>)[]) {
  const queue = [...responders];
  vi.stubGlobal('fetch', (url: string, init: RequestInit) => {
    const call = { url, init };
    calls.push(call);
    const next = queue.shift();
    if (!next) throw new Error(`unexpected request ${url}`);
    return Promise.resolve(next(call));
  });
}

const json = (status: number, body: unknown) => () =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

function clearCookies() {
  for (const cookie of document.cookie.split(';')) {
    const name = cookie.split('=')[0]?.trim();
    if (name) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
  }
}

beforeEach(() => {
  calls = [];
  clearCookies();
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('api client', () => {
  it('GETs JSON from /api with the query string and same-origin cookies', async () => {
    answerWith(json(200, { data: [], cursor: null, isLastPage: true }));

    const page = await api.get('/products', { query: { filterType: 'yachts', q: undefined, limit: 6 } });

    expect(page).toEqual({ data: [], cursor: null, isLastPage: true });
    expect(calls[0]?.url).toBe('/api/products?filterType=yachts&limit=6');
    expect(calls[0]?.init.method).toBe('GET');
    expect(calls[0]?.init.credentials).toBe('same-origin');
    expect(new Headers(calls[0]?.init.headers).has('x-csrf-token')).toBe(false);
  });

  it('sends a JSON body with the csrf cookie echoed in x-csrf-token on state-changing requests', async () => {
    document.cookie = 'csrf=token-from-cookie; path=/';
    answerWith(json(201, { id: 'p1' }), () => new Response(null, { status: 204 }));

    const created = await api.post('/admin/products', { name: 'Sloop' });
    const removed = await api.delete('/admin/products/p1');

    expect(created).toEqual({ id: 'p1' });
    expect(removed).toBeUndefined();
    const headers = new Headers(calls[0]?.init.headers);
    expect(headers.get('x-csrf-token')).toBe('token-from-cookie');
    expect(headers.get('content-type')).toBe('application/json');
    expect(calls[0]?.init.body).toBe('{"name":"Sloop"}');
    expect(new Headers(calls[1]?.init.headers).get('x-csrf-token')).toBe('token-from-cookie');
  });

  it('fetches the session first when the csrf cookie is missing, then echoes the cookie it set', async () => {
    answerWith(
      () => {
        document.cookie = 'csrf=fresh-token; path=/';
        return json(200, { user: null })();
      },
      json(200, { ok: true }),
    );

    await api.put('/admin/products/p1', { name: 'Ketch' });

    expect(calls.map((call) => call.url)).toEqual(['/api/auth/session', '/api/admin/products/p1']);
    expect(new Headers(calls[1]?.init.headers).get('x-csrf-token')).toBe('fresh-token');
  });

  it("turns the API's error body into an ApiError with status, code, message and details", async () => {
    document.cookie = 'csrf=t; path=/';
    answerWith(json(400, { error: { code: 'VALIDATION', message: 'Invalid registration', details: ["Passwords don't match!"] } }));

    const error = await api.post('/auth/register', {}).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 400, code: 'VALIDATION', message: 'Invalid registration', details: ["Passwords don't match!"] });
  });

  it('keeps extra fields of an error body such as the new total of PRICES_CHANGED', async () => {
    document.cookie = 'csrf=t; path=/';
    answerWith(json(409, { error: { code: 'PRICES_CHANGED', message: 'Prices changed', totalCents: 4200 } }));

    const error = await apiFetch('/payments/create', { method: 'POST', body: {} }).catch((e: unknown) => e);

    expect((error as ApiError).body?.totalCents).toBe(4200);
  });

  it("names a 4xx without the API's shape 'Bad request' and a 5xx 'Bad response'", async () => {
    answerWith(
      () => new Response('<html>nope</html>', { status: 404 }),
      () => new Response('Bad Gateway', { status: 502 }),
    );

    await expect(api.get('/missing')).rejects.toMatchObject({ status: 404, code: 'BAD_REQUEST', message: 'Bad request' });
    await expect(api.get('/products')).rejects.toMatchObject({ status: 502, code: 'BAD_RESPONSE', message: 'Bad response' });
  });

  it("reports a failed connection as 'Network error' with status 0", async () => {
    answerWith(() => {
      throw new TypeError('fetch failed');
    });

    await expect(api.get('/products')).rejects.toMatchObject({ status: 0, code: 'NETWORK_ERROR', message: 'Network error' });
  });

  it('aborts after the time-out and says so', async () => {
    vi.useFakeTimers();
    answerWith(hangUntilAborted);

    const pending = api.get('/products', { timeoutMs: 50 }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(50);

    expect(await pending).toMatchObject({ status: 0, code: 'TIMEOUT', message: 'Request timed out' });
  });

  it("reports the caller's abort as 'Request aborted'", async () => {
    answerWith(hangUntilAborted);
    const controller = new AbortController();

    const pending = api.get('/products', { signal: controller.signal }).catch((e: unknown) => e);
    controller.abort();

    expect(await pending).toMatchObject({ status: 0, code: 'ABORTED', message: 'Request aborted' });
  });
});

function hangUntilAborted(call: Call): Promise<Response> {
  return new Promise((_resolve, reject) => {
    call.init.signal?.addEventListener('abort', () => reject(new DOMException('The operation was aborted.', 'AbortError')));
  });
}
