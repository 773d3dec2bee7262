import { cleanStores, keepMount } from 'nanostores';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SessionUser } from '@boatshop/contract';
import { $session } from '@boatshop/state';
import {
  $resetPasswordSuccess,
  $userErr,
  confirmPasswordReset,
  requestPasswordReset,
  resetUserState,
  signIn,
  signInWithGoogle,
  signUp,
} from './identity';

const sandy: SessionUser = {
  id: 'u1',
  displayName: 'Sandy Shopper',
  email: 'sandy@example.com',
  userRoles: ['user'],
  emailVerified: true,
  hasPassword: true,
};

const fetchMock = vi.fn<(url: string, init: RequestInit) => Promise<Response>>();

const json = (status: number, body: unknown) =>
  Promise.resolve(new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }));

const sentBody = (call = 0) => JSON.parse(String(fetchMock.mock.calls[call]?.[1].body));

beforeEach(() => {
  document.cookie = 'csrf=t; path=/';
  vi.stubGlobal('fetch', fetchMock);
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  keepMount($session);
  keepMount($userErr);
  keepMount($resetPasswordSuccess);
  // Module-level stores outlive each test: start every test signed out with no messages.
  $session.set({ status: 'unknown', user: null });
  resetUserState();
});

afterEach(() => {
  fetchMock.mockReset();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  vi.useRealTimers();
  cleanStores($session, $userErr, $resetPasswordSuccess);
});

describe('signIn', () => {
  it('puts the user in the session and clears old errors', async () => {
    $userErr.set(['old']);
    fetchMock.mockReturnValueOnce(json(200, { user: sandy }));

    expect(await signIn({ email: 'sandy@example.com', password: 'pw' })).toBe(true);

    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/auth/login');
    expect(fetchMock.mock.calls[0]?.[1].headers).toMatchObject({ 'x-csrf-token': 't' });
    expect($session.get()).toEqual({ status: 'ready', user: sandy });
    expect($userErr.get()).toEqual([]);
  });

  it("lists the API's one message for wrong credentials", async () => {
    fetchMock.mockReturnValueOnce(
      json(401, { error: { code: 'WRONG_CREDENTIALS', message: 'Wrong e-mail or password.', details: ['Wrong e-mail or password.'] } }),
    );

    expect(await signIn({ email: 'sandy@example.com', password: 'nope' })).toBe(false);

    expect($session.get().user).toBeNull();
    expect($userErr.get()).toEqual(['Wrong e-mail or password.']);
  });

  it('falls back to the message when the API sent no list, e.g. a rate limit', async () => {
    fetchMock.mockReturnValueOnce(json(429, { error: { code: 'RATE_LIMITED', message: 'Too many requests, try again in 1 minute' } }));
    await signIn({ email: 'sandy@example.com', password: 'pw' });
    expect($userErr.get()).toEqual(['Too many requests, try again in 1 minute']);
  });
});

describe('signUp', () => {
  const form = { displayName: 'Sandy Shopper', email: 'sandy@example.com', password: 'mizzen-mast', confirmPassword: 'mizzen-mast' };

  it("says 'Passwords don't match!' without asking the API", async () => {
    expect(await signUp({ ...form, confirmPassword: 'other' })).toBe(false);
    expect($userErr.get()).toEqual(["Passwords don't match!"]);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('sends displayName, email, password and confirmPassword, and signs the new user in', async () => {
    fetchMock.mockReturnValueOnce(json(201, { user: sandy }));
    expect(await signUp(form)).toBe(true);
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/auth/register');
    expect(sentBody()).toEqual(form);
    expect($session.get().user).toEqual(sandy);
  });

  it("passes the API's policy messages through to the list", async () => {
    const details = ['Password must be at least 8 characters long.', 'Password must not be your e-mail address.'];
    fetchMock.mockReturnValueOnce(json(400, { error: { code: 'VALIDATION', message: 'Please correct the problems listed.', details } }));
    expect(await signUp(form)).toBe(false);
    expect($userErr.get()).toEqual(details);
  });

  it('says what happened when the API cannot be reached', async () => {
    fetchMock.mockRejectedValueOnce(new TypeError('fetch failed'));
    expect(await signUp(form)).toBe(false);
    expect($userErr.get()).toEqual(['Network error']);
  });
});

describe('password reset', () => {
  it('sets the success flag and returns the note of a requested e-mail; resetUserState clears it', async () => {
    const note = 'If an account exists for this e-mail, we have sent it a link to choose a new password.';
    fetchMock.mockReturnValueOnce(json(202, { message: note }));

    expect(await requestPasswordReset('sandy@example.com')).toBe(note);
    expect(sentBody()).toEqual({ email: 'sandy@example.com' });
    expect($resetPasswordSuccess.get()).toBe(true);

    resetUserState();
    expect($resetPasswordSuccess.get()).toBe(false);
    expect($userErr.get()).toEqual([]);
  });

  it('puts a failed request into the error list and leaves the flag down', async () => {
    fetchMock.mockReturnValueOnce(
      json(400, {
        error: { code: 'VALIDATION', message: 'Please enter a valid e-mail address.', details: ['Please enter a valid e-mail address.'] },
      }),
    );
    expect(await requestPasswordReset('sandy')).toBeNull();
    expect($userErr.get()).toEqual(['Please enter a valid e-mail address.']);
    expect($resetPasswordSuccess.get()).toBe(false);
  });

  it('confirms a new password with the token, checking the confirmation first', async () => {
    expect(await confirmPasswordReset({ token: 'tok', password: 'a-new-password', confirmPassword: 'different' })).toBe(false);
    expect($userErr.get()).toEqual(["Passwords don't match!"]);
    expect(fetchMock).not.toHaveBeenCalled();

    fetchMock.mockReturnValueOnce(Promise.resolve(new Response(null, { status: 204 })));
    expect(await confirmPasswordReset({ token: 'tok', password: 'a-new-password', confirmPassword: 'a-new-password' })).toBe(true);
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/auth/password-reset/confirm');
    expect(sentBody()).toEqual({ token: 'tok', password: 'a-new-password', confirmPassword: 'a-new-password' });
    expect($userErr.get()).toEqual([]);
  });
});

describe('signInWithGoogle', () => {
  function fakePopup() {
    const popup = { closed: false, focus: vi.fn() } as unknown as Window & { closed: boolean };
    const open = vi.fn(() => popup);
    vi.stubGlobal('open', open);
    return { popup, open };
  }

  function postFromPopup(popup: Window, data: unknown, origin = window.location.origin) {
    window.dispatchEvent(new MessageEvent('message', { data, origin, source: popup as unknown as MessageEventSource }));
  }

  it("opens the API's sign-in in a popup and, on its message, asks the API who is signed in", async () => {
    const { popup, open } = fakePopup();
    fetchMock.mockReturnValueOnce(json(200, { user: sandy }));

    const result = signInWithGoogle();
    expect(open).toHaveBeenCalledWith('/api/auth/oidc/start', 'boatshop-oidc', expect.stringContaining('popup'));
    postFromPopup(popup, { type: 'boatshop:oidc', ok: true });

    expect(await result).toBe(true);
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/auth/session');
    expect($session.get().user).toEqual(sandy);
  });

  it('ignores messages from other origins and other windows', async () => {
    const { popup } = fakePopup();
    const result = signInWithGoogle();
    postFromPopup(popup, { type: 'boatshop:oidc', ok: true }, 'https://evil.example');
    postFromPopup({} as Window, { type: 'boatshop:oidc', ok: true });
    postFromPopup(popup, { type: 'boatshop:oidc', ok: false, message: 'Sign-in was cancelled or could not be completed.' });

    expect(await result).toBe(false);
    expect(fetchMock).not.toHaveBeenCalled();
    expect($userErr.get()).toEqual(['Sign-in was cancelled or could not be completed.']);
  });

  it('checks the session once the popup is closed without a message', async () => {
    vi.useFakeTimers();
    const { popup } = fakePopup();
    fetchMock.mockReturnValueOnce(json(200, { user: null }));

    const result = signInWithGoogle();
    popup.closed = true;
    await vi.advanceTimersByTimeAsync(600);

    expect(await result).toBe(false);
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/auth/session');
  });

  it('asks to allow pop-ups when the browser blocked it', async () => {
    vi.stubGlobal(
      'open',
      vi.fn(() => null),
    );
    expect(await signInWithGoogle()).toBe(false);
    expect($userErr.get()).toEqual(['Allow pop-ups for this site to sign in with Google.']);
  });
});
