import { render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { beforeEach, describe, expect, it } from 'vitest';
import { setSessionUser } from '@boatshop/state';
import { $emailVerification } from '../identity/account-security';
import VerifyEmail from './verify-email';
import { fetchMock, json, stubApiInEveryTest } from '../test/api-stub';

stubApiInEveryTest();

beforeEach(() => {
  $emailVerification.set({ status: 'idle', errors: [] });
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

  it('asks nothing without a token', () => {
    renderAt('/verify-email');
    expect(screen.getByText('This link has no confirmation token.')).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
