import { cleanStores, keepMount } from 'nanostores';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  $emailVerification,
  $passwordChange,
  $signOutEverywhereError,
  $verificationResend,
  changePassword,
  resendVerificationEmail,
  signOutEverywhere,
  verifyEmail,
} from './account-security';
import type { SessionUser } from '@boatshop/contract';
import { $session, setSessionUser } from '@boatshop/state';

const sandy: SessionUser = {
  id: 'u1',
  displayName: 'Sandy Shopper',
  email: 'sandy@example.com',
  userRoles: ['user'],
  emailVerified: false,
  hasPassword: true,
};

const fetchMock = vi.fn<(url: string, init: RequestInit) => Promise<Response>>();
const json = (status: number, body: unknown) =>
  Promise.resolve(new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }));
const noContent = () => Promise.resolve(new Response(null, { status: 204 }));

const stores = [$session, $emailVerification, $verificationResend, $passwordChange, $signOutEverywhereError];

beforeEach(() => {
  document.cookie = 'csrf=t; path=/';
  vi.stubGlobal('fetch', fetchMock);
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  for (const store of stores) keepMount(store);
  setSessionUser(sandy);
  $emailVerification.set({ status: 'idle', errors: [], message: null });
  $verificationResend.set({ status: 'idle', message: null });
  $passwordChange.set({ status: 'idle', errors: [] });
  $signOutEverywhereError.set(null);
});

afterEach(() => {
  fetchMock.mockReset();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  cleanStores(...stores);
});

describe('verifyEmail', () => {
  it('sends the token, then asks the API who is signed in (the link may belong to another account)', async () => {
    fetchMock.mockReturnValueOnce(noContent()).mockReturnValueOnce(json(200, { user: { ...sandy, emailVerified: true } }));

    expect(await verifyEmail('tok')).toBe(true);

    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/auth/verify-email');
    expect(JSON.parse(String(fetchMock.mock.calls[0]?.[1].body))).toEqual({ token: 'tok' });
    expect(fetchMock.mock.calls[1]?.[0]).toBe('/api/auth/session');
    expect($emailVerification.get()).toEqual({ status: 'verified', errors: [], message: null });
    expect($session.get().user?.emailVerified).toBe(true);
  });

  it("lists the API's reason when the link is not valid", async () => {
    const reason = 'This confirmation link is invalid, expired or already used. Ask for a new one from your account page.';
    fetchMock.mockReturnValueOnce(json(400, { error: { code: 'VALIDATION', message: reason, details: [reason] } }));

    expect(await verifyEmail('old')).toBe(false);
    expect($emailVerification.get()).toEqual({ status: 'failed', errors: [reason], message: null });
  });
});

describe('resendVerificationEmail', () => {
  it("keeps the API's note that the e-mail is on its way", async () => {
    fetchMock.mockReturnValueOnce(json(202, { message: 'We have sent you a new link to confirm your e-mail address.' }));
    expect(await resendVerificationEmail()).toBe(true);
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/auth/verify-email/resend');
    expect($verificationResend.get()).toEqual({ status: 'sent', message: 'We have sent you a new link to confirm your e-mail address.' });
  });

  it('says why when the API refuses, e.g. too many e-mails', async () => {
    const message = 'We have sent several verification e-mails already. Try again in 15 minutes.';
    fetchMock.mockReturnValueOnce(json(429, { error: { code: 'RATE_LIMITED', message } }));
    expect(await resendVerificationEmail()).toBe(false);
    expect($verificationResend.get()).toEqual({ status: 'failed', message });
  });

  it('refreshes the session when the address was verified meanwhile', async () => {
    fetchMock
      .mockReturnValueOnce(json(409, { error: { code: 'ALREADY_VERIFIED', message: 'Your e-mail address is already verified.' } }))
      .mockReturnValueOnce(json(200, { user: { ...sandy, emailVerified: true } }));
    expect(await resendVerificationEmail()).toBe(false);
    expect($verificationResend.get()).toEqual({ status: 'idle', message: null });
    expect($session.get().user?.emailVerified).toBe(true);
  });
});

describe('changePassword', () => {
  it('sends the current and the new password and keeps the user signed in', async () => {
    fetchMock.mockReturnValueOnce(json(200, { user: sandy }));
    const input = { currentPassword: 'old-pass-word', password: 'new-pass-word', confirmPassword: 'new-pass-word' };

    expect(await changePassword(input)).toBe(true);
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/auth/password');
    expect(JSON.parse(String(fetchMock.mock.calls[0]?.[1].body))).toEqual(input);
    expect($passwordChange.get()).toEqual({ status: 'saved', errors: [] });
    expect($session.get()).toEqual({ status: 'ready', user: sandy });
  });

  it('catches differing passwords before sending anything', async () => {
    expect(await changePassword({ currentPassword: 'a', password: 'new-pass-word', confirmPassword: 'other' })).toBe(false);
    expect(fetchMock).not.toHaveBeenCalled();
    expect($passwordChange.get()).toEqual({ status: 'failed', errors: ["Passwords don't match!"] });
  });

  it("lists the API's reasons", async () => {
    fetchMock.mockReturnValueOnce(
      json(400, {
        error: { code: 'VALIDATION', message: 'Your current password is wrong.', details: ['Your current password is wrong.'] },
      }),
    );
    expect(await changePassword({ currentPassword: 'a', password: 'new-pass-word', confirmPassword: 'new-pass-word' })).toBe(false);
    expect($passwordChange.get()).toEqual({ status: 'failed', errors: ['Your current password is wrong.'] });
    expect($session.get().user).toEqual(sandy);
  });
});

describe('signOutEverywhere', () => {
  it('revokes every session and forgets the user here', async () => {
    fetchMock.mockReturnValueOnce(noContent());
    expect(await signOutEverywhere()).toBe(true);
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/auth/logout-everywhere');
    expect(fetchMock.mock.calls[0]?.[1].method).toBe('POST');
    expect($session.get()).toEqual({ status: 'ready', user: null });
  });

  it('keeps the user signed in and says why when the API could not do it', async () => {
    fetchMock.mockReturnValueOnce(json(500, { error: { code: 'INTERNAL', message: 'Internal server error' } }));
    expect(await signOutEverywhere()).toBe(false);
    expect($session.get().user).toEqual(sandy);
    expect($signOutEverywhereError.get()).toBe('Internal server error');
  });
});
