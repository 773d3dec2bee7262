import type { ApiErrorBody } from './contract';

/** Every front end talks to the API through its own origin: the shell's server proxies /api. */
export const API_BASE = '/api';

const CSRF_COOKIE = 'csrf';
const CSRF_HEADER = 'x-csrf-token';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Codes for failures that never reached an API answer, or whose answer was not the API's shape (SPEC §8). */
export const CLIENT_ERROR_CODES = {
  network: 'NETWORK_ERROR',
  timeout: 'TIMEOUT',
  aborted: 'ABORTED',
  badRequest: 'BAD_REQUEST',
  badResponse: 'BAD_RESPONSE',
} as const;

/**
 * One error type for every failed call, so pages can branch on `status` and `code` and list
 * `details` without knowing whether the failure came from the network or from the API.
 * `status` is 0 when no HTTP answer arrived.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: string[];
  /** The API's whole error object, for codes that carry more (e.g. `totalCents` with PRICES_CHANGED). */
  readonly body: ApiErrorBody['error'] | null;

  constructor(init: { status: number; code: string; message: string; details?: string[]; body?: ApiErrorBody['error']; cause?: unknown }) {
    super(init.message, { cause: init.cause });
    this.name = 'ApiError';
    this.status = init.status;
    this.code = init.code;
    this.details = init.details ?? [];
    this.body = init.body ?? null;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

export type QueryValue = string | number | boolean | null | undefined;

export interface ApiRequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Sent as JSON. */
  body?: unknown;
  /** Appended as a query string; null and undefined values are left out. */
  query?: Record<string, QueryValue>;
  signal?: AbortSignal;
  /** Milliseconds; 0 means no time-out, the default (SPEC §9). */
  timeoutMs?: number;
}

export function readCookie(name: string): string | null {
  if (typeof document === 'undefined') return null;
  for (const part of document.cookie.split(';')) {
    const separator = part.indexOf('=');
    if (separator === -1) continue;
    if (part.slice(0, separator).trim() === name) return decodeURIComponent(part.slice(separator + 1).trim());
  }
  return null;
}

let csrfRequest: Promise<void> | null = null;

/**
 * The API hands out the CSRF cookie on GET /api/auth/session, which the shell calls on start.
 * Should the cookie be missing anyway (cleared, expired), fetch it once before the first
 * state-changing request instead of letting that request fail with 403.
 */
async function csrfToken(): Promise<string | null> {
  const existing = readCookie(CSRF_COOKIE);
  if (existing) return existing;
  csrfRequest ??= fetch(`${API_BASE}/auth/session`, { credentials: 'same-origin' })
    .then(
      () => undefined,
      () => undefined,
    )
    .finally(() => {
      csrfRequest = null;
    });
  await csrfRequest;
  return readCookie(CSRF_COOKIE);
}

function buildUrl(path: string, query?: Record<string, QueryValue>): string {
  const url = `${API_BASE}${path.startsWith('/') ? path : `/${path}`}`;
  if (!query) return url;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) params.set(key, String(value));
  }
  const search = params.toString();
  return search ? `${url}?${search}` : url;
}

function isErrorBody(value: unknown): value is ApiErrorBody {
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

/**
 * Calls the API and returns its parsed JSON body (undefined for an empty answer such as 204).
 * Rejects with ApiError for every failure: HTTP 4xx/5xx, network, time-out and abort.
 */
export async function apiFetch<T>(path: string, options: ApiRequestOptions = {}): Promise<T> {
  const method = options.method ?? 'GET';
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (!SAFE_METHODS.has(method)) {
    const token = await csrfToken();
    if (token) headers[CSRF_HEADER] = token;
  }

  const controller = new AbortController();
  let timedOut = false;
  const onCallerAbort = () => controller.abort();
  if (options.signal?.aborted) controller.abort();
  options.signal?.addEventListener('abort', onCallerAbort, { once: true });
  const timer =
    options.timeoutMs && options.timeoutMs > 0
      ? setTimeout(() => {
          timedOut = true;
          controller.abort();
        }, options.timeoutMs)
      : undefined;

  try {
    const response = await fetch(buildUrl(path, options.query), {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      credentials: 'same-origin',
      signal: controller.signal,
    });
    if (!response.ok) throw await toApiError(response);
    return (await readJson(response)) as T;
  } catch (cause) {
    if (cause instanceof ApiError) throw cause;
    // fetch and body reads reject with TypeError/DOMException; name the reason the way SPEC §8 does.
    if (timedOut) throw new ApiError({ status: 0, code: CLIENT_ERROR_CODES.timeout, message: 'Request timed out', cause });
    if (controller.signal.aborted) throw new ApiError({ status: 0, code: CLIENT_ERROR_CODES.aborted, message: 'Request aborted', cause });
    throw new ApiError({ status: 0, code: CLIENT_ERROR_CODES.network, message: 'Network error', cause });
  } finally {
    if (timer !== undefined) clearTimeout(timer);
    options.signal?.removeEventListener('abort', onCallerAbort);
  }
}

type BodylessOptions = Omit<ApiRequestOptions, 'method' | 'body'>;

export const api = {
  get: <T>(path: string, options?: BodylessOptions) => apiFetch<T>(path, { ...options, method: 'GET' }),
  post: <T>(path: string, body?: unknown, options?: BodylessOptions) => apiFetch<T>(path, { ...options, method: 'POST', body }),
  put: <T>(path: string, body?: unknown, options?: BodylessOptions) => apiFetch<T>(path, { ...options, method: 'PUT', body }),
  delete: <T = void>(path: string, options?: BodylessOptions) => apiFetch<T>(path, { ...options, method: 'DELETE' }),
};
