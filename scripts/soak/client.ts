// One virtual user's HTTP client: its own cookies (session, csrf), its own client address (sent
// as X-Forwarded-For, which nginx passes on and the API believes from loopback only), every
// attempt recorded. Requests the API makes idempotent are retried on a clean 502/503/504 or a
// lost connection; the others are not.
import type { Outcome, SoakStats } from './stats.js';

const CLEAN_5XX = new Set([502, 503, 504]);
const RETRY_DELAYS_MS = [250, 500, 1000, 2000, 4000, 8000];
const ATTEMPT_TIMEOUT_MS = 30_000;

export interface Call {
  /** the route as it is reported, `POST /api/payments/create` */
  route: string;
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  body?: unknown;
  /** statuses that are a correct answer for this step (default 200) */
  expect?: readonly number[];
  /** the API makes this request idempotent: retry it on a clean failure */
  retry?: boolean;
  headers?: Record<string, string>;
}

export interface Answer<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
}

export class SoakRequestError extends Error {
  constructor(
    readonly route: string,
    readonly status: number | null,
    message: string,
  ) {
    super(message);
  }
}

export function classify(status: number | null, expected: readonly number[]): Outcome {
  if (status === null) return 'network';
  if (expected.includes(status)) return 'ok';
  if (CLEAN_5XX.has(status)) return 'clean-5xx';
  if (status >= 500) return 'other-5xx';
  return 'unexpected-4xx';
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class SoakClient {
  readonly cookies = new Map<string, string>();

  constructor(
    readonly baseUrl: string,
    readonly clientAddress: string,
    readonly stats: SoakStats,
  ) {}

  /** The answer, when its status is expected; throws SoakRequestError otherwise (after retries). */
  async call<T = unknown>(call: Call): Promise<Answer<T>> {
    const method = call.method ?? (call.body === undefined ? 'GET' : 'POST');
    const expected = call.expect ?? [200];
    const retry = call.retry ?? method === 'GET';
    for (let attempt = 0; ; attempt++) {
      const started = performance.now();
      let status: number | null = null;
      let answer: Answer<T> | null = null;
      let problem = '';
      try {
        const response = await fetch(new URL(call.path, this.baseUrl), {
          method,
          headers: this.headers(method, call),
          body: call.body === undefined ? undefined : JSON.stringify(call.body),
          redirect: 'manual',
          signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
        });
        status = response.status;
        this.keepCookies(response.headers);
        const text = await response.text();
        const json = response.headers.get('content-type')?.includes('json');
        answer = { status, body: (json && text ? JSON.parse(text) : text) as T, headers: response.headers };
        if (!expected.includes(status)) problem = `${status} ${text.slice(0, 300)}`;
      } catch (error) {
        status = null;
        answer = null;
        problem =
          error instanceof Error ? `${error.message}${error.cause instanceof Error ? `: ${error.cause.message}` : ''}` : String(error);
      }
      const outcome = classify(status, expected);
      this.stats.record({ route: call.route, status, outcome, ms: performance.now() - started, at: Date.now() }, problem);
      if (outcome === 'ok') {
        this.stats.requestDone(call.route, true);
        return answer!;
      }
      const retriable = retry && (outcome === 'clean-5xx' || outcome === 'network') && attempt < RETRY_DELAYS_MS.length;
      if (!retriable) {
        this.stats.requestDone(call.route, false);
        throw new SoakRequestError(call.route, status, `${call.route}: ${problem}`);
      }
      await sleep(RETRY_DELAYS_MS[attempt]!);
    }
  }

  private headers(method: string, call: Call): Record<string, string> {
    const headers: Record<string, string> = {
      accept: 'application/json, text/html',
      'x-forwarded-for': this.clientAddress,
      ...call.headers,
    };
    if (call.body !== undefined) headers['content-type'] = 'application/json';
    if (this.cookies.size > 0) headers.cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const csrf = this.cookies.get('csrf');
    if (method !== 'GET' && csrf) headers['x-csrf-token'] = csrf;
    return headers;
  }

  private keepCookies(headers: Headers): void {
    for (const line of headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const at = pair.indexOf('=');
      if (at < 1) continue;
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a) || /^\s*expires=Thu, 01 Jan 1970/i.test(a));
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
}
