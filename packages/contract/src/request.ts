// The request core of the typed client (`@boatshop/contract/request`): one `request(route, input)`
// for any route of the table, the errors, and the types every request and answer has (from the
// route table, ./routes.ts, through TypeBox's `Static<>`; the schemas are imported as types only,
// so no TypeBox reaches a browser). `@boatshop/contract/client` adds a method per route on top.
// An app that makes a couple of calls (the shared core, @boatshop/state) imports this alone and
// names its routes itself (`request(SESSION_ROUTE, {})`), so it does not carry the whole table.
import type { Static, TObject, TProperties, TSchema } from '@sinclair/typebox';
import { API_BASE, CSRF_COOKIE, CSRF_HEADER } from './constants.js';
import { SESSION_ROUTE, type HttpMethod, type RoutePath } from './paths.js';
import type { Routes } from './routes.js';
import type { ErrorBody } from './schemas/common.js';

export { SESSION_ROUTE, LOGOUT_ROUTE, type HttpMethod, type RoutePath } from './paths.js';

// ------------------------------------------------------------------------------------------
// Types derived from the route table

type Simplify<T> = { [K in keyof T]: T[K] } & {};

/** Every route of the table, as one union. */
type Leaves<T> = T extends RoutePath ? T : { [K in keyof T]: Leaves<T[K]> }[keyof T];
export type AnyRoute = Leaves<Routes>;

/** The route of the table with this method and path. */
export type RouteAt<M extends HttpMethod, P extends string> = Extract<AnyRoute, { method: M; path: P }>;
type RouteOf<R extends RoutePath> = RouteAt<R['method'], R['path']>;

type DefaultedKeys<P extends TProperties> = { [K in keyof P]: P[K] extends { default: unknown } ? K : never }[keyof P];
/** A query as a caller writes it: the fields the API fills in by default may be left out. */
type QueryInput<P extends TProperties> = WithOptional<Static<TObject<P>>, DefaultedKeys<P>>;
type WithOptional<T, K> = Simplify<Omit<T, K & keyof T> & Partial<Pick<T, K & keyof T>>>;

/** What the route answers on success (undefined for 204). */
export type ResponseOf<R extends RoutePath> =
  RouteOf<R> extends { status: 204 } ? void : RouteOf<R> extends { response: infer S extends TSchema } ? Static<S> : never;
export type BodyOf<R extends RoutePath> = RouteOf<R> extends { body: infer S extends TSchema } ? Static<S> : never;
export type QueryOf<R extends RoutePath> = RouteOf<R> extends { query: TObject<infer P> } ? QueryInput<P> : never;
export type ParamsOf<R extends RoutePath> = RouteOf<R> extends { params: infer S extends TSchema } ? Static<S> : never;

/** What `request` needs for a route: exactly the parts its schemas declare. */
export type RequestInput<R extends RoutePath> = Simplify<
  (RouteOf<R> extends { params: TSchema } ? { params: ParamsOf<R> } : { params?: never }) &
    (RouteOf<R> extends { query: TSchema } ? { query?: QueryOf<R> } : { query?: never }) &
    (RouteOf<R> extends { body: TSchema } ? { body: BodyOf<R> } : { body?: never })
>;

// ------------------------------------------------------------------------------------------
// Errors

/** Codes for failures that never reached an API answer, or whose answer was not the API's shape. */
export const CLIENT_ERROR_CODES = {
  network: 'NETWORK_ERROR',
  timeout: 'TIMEOUT',
  aborted: 'ABORTED',
  badRequest: 'BAD_REQUEST',
  badResponse: 'BAD_RESPONSE',
} as const;

/** Marks an ApiError of any copy of this file (each app bundles its own). */
const API_ERROR_BRAND = Symbol.for('@boatshop/contract/ApiError');

/**
 * One error type for every failed call, so pages can branch on `status` and `code` and list
 * `details` without knowing whether the failure came from the network or from the API.
 * `status` is 0 when no HTTP answer arrived.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  /** the problems of a form, one sentence each (the API's `details`) */
  readonly details: string[];
  /** The API's whole error object, for codes that carry more (e.g. `totalCents` with PRICES_CHANGED). */
  readonly body: ErrorBody['error'] | null;

  constructor(init: { status: number; code: string; message: string; details?: string[]; body?: ErrorBody['error']; cause?: unknown }) {
    super(init.message, { cause: init.cause });
    this.name = 'ApiError';
    this.status = init.status;
    this.code = init.code;
    this.details = init.details ?? [];
    this.body = init.body ?? null;
    Object.defineProperty(this, API_ERROR_BRAND, { value: true });
  }
}

/**
 * Structural, not `instanceof`: the shell's copy of the client and a remote's copy are two
 * classes, and an error thrown by one must be recognised by the other.
 */
export function isApiError(error: unknown): error is ApiError {
  if (typeof error !== 'object' || error === null) return false;
  if ((error as Record<symbol, unknown>)[API_ERROR_BRAND] === true) return true;
  const candidate = error as Partial<ApiError>;
  return (
    candidate.name === 'ApiError' &&
    typeof candidate.status === 'number' &&
    typeof candidate.code === 'string' &&
    typeof candidate.message === 'string' &&
    Array.isArray(candidate.details)
  );
}

// ------------------------------------------------------------------------------------------
// The client

export type QueryValue = string | number | boolean | null | undefined;

export interface RequestOptions {
  signal?: AbortSignal;
  /** Milliseconds; 0 (the default) means no time-out. */
  timeoutMs?: number;
}

export interface ApiClientOptions {
  /** Where the API is; default `/api` (every front end's own origin, proxied). */
  baseUrl?: string;
  /** The fetch to use; default the global one, looked up at call time. */
  fetch?: typeof fetch;
  /** Default `same-origin`: the session and csrf cookies go along. */
  credentials?: 'omit' | 'same-origin' | 'include';
  /** The cookie string to read the csrf token from; default `document.cookie` where there is a document. */
  cookies?: () => string;
}

const SAFE_METHODS = new Set<string>(['GET', 'HEAD', 'OPTIONS']);

/** A cookie's value from a Cookie header or `document.cookie`, percent-decoded when it is well-formed; null when absent. */
export function readCookie(cookies: string | undefined, name: string): string | null {
  for (const part of (cookies ?? '').split(';')) {
    const separator = part.indexOf('=');
    if (separator === -1) continue;
    if (part.slice(0, separator).trim() !== name) continue;
    const value = part.slice(separator + 1).trim();
    try {
      return decodeURIComponent(value);
    } catch {
      return value;
    }
  }
  return null;
}

// Read through globalThis: the client also runs (and type-checks) in Node, which has no document.
function browserCookies(): string {
  return (globalThis as { document?: { cookie: string } }).document?.cookie ?? '';
}

function isErrorBody(value: unknown): value is ErrorBody {
  if (typeof value !== 'object' || value === null || !('error' in value)) return false;
  const error = (value as { error: unknown }).error;
  return typeof error === 'object' && error !== null && typeof (error as { message?: unknown }).message === 'string';
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

async function toApiError(response: Response): Promise<ApiError> {
  const payload = await readJson(response);
  if (isErrorBody(payload)) {
    const { code, message, details } = payload.error;
    const fallbackCode = response.status >= 500 ? CLIENT_ERROR_CODES.badResponse : CLIENT_ERROR_CODES.badRequest;
    return new ApiError({
      status: response.status,
      code: code || fallbackCode,
      message,
      details: Array.isArray(details) ? details : [],
      body: payload.error,
    });
  }
  // Not the API's error shape: a proxy page, a gateway error, a server that is not ours.
  return response.status >= 500
    ? new ApiError({ status: response.status, code: CLIENT_ERROR_CODES.badResponse, message: 'Bad response' })
    : new ApiError({ status: response.status, code: CLIENT_ERROR_CODES.badRequest, message: 'Bad request' });
}

/** `/orders/:id` with `{ id }` → `/orders/<id, encoded>`. */
export function fillPath(path: string, params: Record<string, unknown> = {}): string {
  return path.replace(/:(\w+)/g, (_match, name: string) => {
    const value = params[name];
    if (value === undefined || value === null) throw new TypeError(`missing path parameter ${name} for ${path}`);
    return encodeURIComponent(String(value));
  });
}

/** The query string of `query`, without the null and undefined values; '' when nothing is left. */
export function queryString(query: Record<string, QueryValue> | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) params.set(key, String(value));
  }
  const search = params.toString();
  return search ? `?${search}` : '';
}

/** What createRequest gives: a call of any route of the table. */
export type ApiRequest = <R extends RoutePath>(route: R, input: RequestInput<R>, requestOptions?: RequestOptions) => Promise<ResponseOf<R>>;

export function createRequest(options: ApiClientOptions = {}): ApiRequest {
  const baseUrl = (options.baseUrl ?? API_BASE).replace(/\/$/, '');
  const doFetch: typeof fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const credentials = options.credentials ?? 'same-origin';
  const cookies = options.cookies ?? browserCookies;

  let csrfRequest: Promise<void> | null = null;

  /**
   * The API hands out the csrf cookie on GET /auth/session, which the shell calls on start.
   * Should the cookie be missing anyway (cleared, expired), fetch it once before the first
   * state-changing request instead of letting that request fail with 403.
   */
  async function csrfToken(): Promise<string | null> {
    const existing = readCookie(cookies(), CSRF_COOKIE);
    if (existing) return existing;
    csrfRequest ??= doFetch(`${baseUrl}${SESSION_ROUTE.path}`, { credentials })
      .then(
        () => undefined,
        () => undefined,
      )
      .finally(() => {
        csrfRequest = null;
      });
    await csrfRequest;
    return readCookie(cookies(), CSRF_COOKIE);
  }

  /**
   * Calls one route of the table and returns its parsed JSON answer (undefined for 204).
   * Rejects with ApiError for every failure: HTTP 4xx/5xx, network, time-out and abort.
   */
  async function request<R extends RoutePath>(
    route: R,
    input: RequestInput<R>,
    requestOptions: RequestOptions = {},
  ): Promise<ResponseOf<R>> {
    const { params, query, body } = input as { params?: Record<string, unknown>; query?: Record<string, QueryValue>; body?: unknown };
    const method = route.method;
    const headers: Record<string, string> = { accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (!SAFE_METHODS.has(method)) {
      const token = await csrfToken();
      if (token) headers[CSRF_HEADER] = token;
    }

    const controller = new AbortController();
    let timedOut = false;
    const onCallerAbort = () => controller.abort();
    const { signal: callerSignal, timeoutMs } = requestOptions;
    if (callerSignal?.aborted) controller.abort();
    callerSignal?.addEventListener('abort', onCallerAbort, { once: true });
    const timer =
      timeoutMs && timeoutMs > 0
        ? setTimeout(() => {
            timedOut = true;
            controller.abort();
          }, timeoutMs)
        : undefined;

    try {
      const url = `${baseUrl}${fillPath(route.path, params)}${queryString(query)}`;
      const response = await doFetch(url, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        credentials,
        signal: controller.signal,
      });
      if (!response.ok) throw await toApiError(response);
      return (await readJson(response)) as ResponseOf<R>;
    } catch (cause) {
      if (isApiError(cause)) throw cause;
      // fetch and body reads reject with TypeError/DOMException; name the reason.
      if (timedOut) throw new ApiError({ status: 0, code: CLIENT_ERROR_CODES.timeout, message: 'Request timed out', cause });
      if (controller.signal.aborted) throw new ApiError({ status: 0, code: CLIENT_ERROR_CODES.aborted, message: 'Request aborted', cause });
      throw new ApiError({ status: 0, code: CLIENT_ERROR_CODES.network, message: 'Network error', cause });
    } finally {
      if (timer !== undefined) clearTimeout(timer);
      callerSignal?.removeEventListener('abort', onCallerAbort);
    }
  }

  return request;
}
