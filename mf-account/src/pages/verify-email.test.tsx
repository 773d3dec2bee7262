import { fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { beforeEach, describe, expect, it } from 'vitest';
import { setSessionUser } from '@boatshop/state';
import { $emailVerification } from '../identity/account-security';
import VerifyEmail from './verify-email';
import { fetchMock, json, stubApiInEveryTest } from '../test/api-stub';

stubApiInEveryTest();

beforeEach(() => {
  $emailVerification.set({ status: 'idle', errors: [], message: null });
  setSessionUser(null);
});

function renderAt(url: string) {
  render(
    <MemoryRouter initialEntries={[url]}>
      <Routes>
        <Route path="/verify-email" element={<VerifyEmail />} />
      </Routes>
    </MemoryRouter>,
  );
}

describe('the verify-email page', () => {
  it("confirms the address with the link's token as soon as it opens, once", async () => {
    fetchMock.mockReturnValueOnce(Promise.resolve(new Response(null, { status: 204 }))).mockReturnValueOnce(json(200, { user: null }));
    renderAt('/verify-email?token=abc123');

    expect(screen.getByRole('heading', { name: 'Confirm your e-mail address' })).toBeTruthy();
    expect((await screen.findByText('Your e-mail address is confirmed. Thank you!')).getAttribute('role')).toBe('status');
    const verifyCalls = fetchMock.mock.calls.filter(([url]) => url === '/api/auth/verify-email');
    expect(verifyCalls).toHaveLength(1);
    expect(JSON.parse(String(verifyCalls[0]?.[1].body))).toEqual({ token: 'abc123' });
    expect(screen.getByRole('link', { name: 'Log in' }).getAttribute('href')).toBe('/login');
  });

  it('lists why a used or expired link did not work', async () => {
    const reason = 'This confirmation link is invalid, expired or already used. Ask for a new one from your account page.';
    fetchMock.mockReturnValueOnce(json(400, { error: { code: 'VALIDATION', message: reason, details: [reason] } }));
    renderAt('/verify-email?token=old');
    expect((await screen.findByRole('alert')).textContent).toBe(reason);
  });

  it('asks for a new password when the link is opened outside a session of the account, and sends it with the token', async () => {
    const asked =
      'This account was not opened in this browser. Choose its password to confirm the address: the password set at sign-up stops working and every device signed in to the account is signed out.';
    fetchMock
      .mockReturnValueOnce(json(409, { error: { code: 'PASSWORD_REQUIRED', message: asked } }))
      .mockReturnValueOnce(Promise.resolve(new Response(null, { status: 204 })))
      .mockReturnValueOnce(json(200, { user: null }));
    renderAt('/verify-email?token=abc123');

    expect(await screen.findByText(asked)).toBeTruthy();
    const form = screen.getByRole('form', { name: 'Choose a password' });
    fireEvent.change(screen.getByLabelText('New Password'), { target: { value: 'owner-chosen-passphrase' } });
    fireEvent.change(screen.getByLabelText('Confirm New Password'), { target: { value: 'owner-chosen-passphrase' } });
    fireEvent.submit(form);

    expect(
      (await screen.findByText('Your e-mail address is confirmed and your password is saved. Log in with your new password.')).getAttribute(
        'role',
      ),
    ).toBe('status');
    const verifyCalls = fetchMock.mock.calls.filter(([url]) => url === '/api/auth/verify-email');
    expect(verifyCalls.map((call) => JSON.parse(String(call[1].body)))).toEqual([
      { token: 'abc123' },
      { token: 'abc123', password: 'owner-chosen-passphrase', confirmPassword: 'owner-chosen-passphrase' },
    ]);
  });

  it('asks nothing without a token', () => {
    renderAt('/verify-email');
    expect(screen.getByText('This link has no confirmation token.')).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
