import { cleanup } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';
import { $session } from '@boatshop/state';

/** The API as the pages' tests see it: every fetch goes here; answer with `json(...)`. */
export const fetchMock = vi.fn<(url: string, init: RequestInit) => Promise<Response>>();

export const json = (status: number, body: unknown) => Promise.resolve(new Response(JSON.stringify(body), { status }));

/**
 * Registers the set-up the account pages' tests share: the stubbed fetch, a CSRF cookie for
 * the state package's writes, console.error silenced (expected API errors), and optionally a
 * signed-out session; everything is undone after each test. Called once at a test file's top
 * level (it is not a React hook, hence no `use` in its name).
 */
export function stubApiInEveryTest(options: { signedOut?: boolean } = {}): void {
  beforeEach(() => {
    document.cookie = 'csrf=t; path=/';
    vi.stubGlobal('fetch', fetchMock);
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    if (options.signedOut) $session.set({ status: 'ready', user: null });
  });

  afterEach(() => {
    cleanup();
    fetchMock.mockReset();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });
}
