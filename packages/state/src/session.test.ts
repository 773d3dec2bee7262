import { cleanStores, keepMount } from 'nanostores';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SessionUser } from '@boatshop/contract';
import { $isAdmin, $session, checkSession, setSessionUser, signOut } from './session';

const shopper: SessionUser = {
  id: 'u1',
  displayName: 'Sandy Shopper',
  email: 'shopper@example.com',
  userRoles: ['user'],
  emailVerified: true,
  hasPassword: true,
};
const admin: SessionUser = {
  id: 'u2',
  displayName: 'Ada Admin',
  email: 'admin@example.com',
  userRoles: ['user', 'owner'],
  emailVerified: true,
  hasPassword: true,
};

const fetchMock = vi.fn<(url: string, init: RequestInit) => Promise<Response>>();

const json = (status: number, body: unknown) =>
  Promise.resolve(new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }));

beforeEach(() => {
  document.cookie = 'csrf=t; path=/';
  vi.stubGlobal('fetch', fetchMock);
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  keepMount($session);
  keepMount($isAdmin);
});

afterEach(() => {
  fetchMock.mockReset();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  cleanStores($session, $isAdmin);
});

describe('session store', () => {
  it('is unknown until the first check answers, then holds the signed-in user', async () => {
    fetchMock.mockReturnValueOnce(json(200, { user: shopper }));
    expect($session.get()).toEqual({ status: 'unknown', user: null });

    await checkSession();

    expect($session.get()).toEqual({ status: 'ready', user: shopper });
    expect($isAdmin.get()).toBe(false);
  });

  it('shares one request between concurrent checks', async () => {
    fetchMock.mockReturnValueOnce(json(200, { user: admin }));

    await Promise.all([checkSession(), checkSession()]);

    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect($isAdmin.get()).toBe(true);
  });

  it('treats an unreachable API as nobody signed in and logs the failure', async () => {
    fetchMock.mockRejectedValueOnce(new TypeError('fetch failed'));

    await checkSession();

    expect($session.get()).toEqual({ status: 'ready', user: null });
    expect(console.error).toHaveBeenCalled();
  });

  it('forgets the user after the server revoked the session', async () => {
    setSessionUser(shopper);
    fetchMock.mockReturnValueOnce(Promise.resolve(new Response(null, { status: 204 })));

    expect(await signOut()).toBe(true);

    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/auth/logout');
    expect($session.get()).toEqual({ status: 'ready', user: null });
  });

  it('also forgets the user when the server no longer knew the session', async () => {
    setSessionUser(shopper);
    fetchMock.mockReturnValueOnce(json(401, { error: { code: 'UNAUTHORIZED', message: 'Not signed in' } }));

    expect(await signOut()).toBe(true);
    expect($session.get().user).toBeNull();
  });

  it('keeps the user signed in when the sign-out request failed, and logs why', async () => {
    setSessionUser(shopper);
    fetchMock.mockRejectedValueOnce(new TypeError('fetch failed'));

    expect(await signOut()).toBe(false);

    expect($session.get().user).toEqual(shopper);
    expect(console.error).toHaveBeenCalledWith('Sign-out failed', expect.objectContaining({ code: 'NETWORK_ERROR' }));
  });
});
