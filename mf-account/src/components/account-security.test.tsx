import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { beforeEach, describe, expect, it } from 'vitest';
import type { SessionUser } from '@boatshop/contract';
import { $session, setSessionUser } from '@boatshop/state';
import { $passwordChange, $signOutEverywhereError, $verificationResend } from '../identity/account-security';
import Login from '../pages/login';
import { ChangePasswordForm } from './change-password-form';
import { EmailVerificationNotice } from './email-verification-notice';
import { SignOutEverywhere } from './sign-out-everywhere';
import { fetchMock, json, stubApiInEveryTest } from '../test/api-stub';

stubApiInEveryTest();

const sandy: SessionUser = {
  id: 'u1',
  displayName: 'Sandy Shopper',
  email: 'sandy@example.com',
  userRoles: ['user'],
  emailVerified: false,
  hasPassword: true,
};
const noContent = () => Promise.resolve(new Response(null, { status: 204 }));
const sentBody = (call = 0) => JSON.parse(String(fetchMock.mock.calls[call]?.[1].body));

beforeEach(() => {
  setSessionUser(sandy);
  $verificationResend.set({ status: 'idle', message: null });
  $passwordChange.set({ status: 'idle', errors: [] });
  $signOutEverywhereError.set(null);
});

function renderOnDashboard(element: React.ReactNode) {
  render(
    <MemoryRouter initialEntries={['/dashboard']}>
      <Routes>
        <Route path="/dashboard" element={element} />
        <Route path="/login" element={<Login />} />
      </Routes>
    </MemoryRouter>,
  );
}

describe('the e-mail verification notice', () => {
  it('tells an unverified user and resends the e-mail on request', async () => {
    fetchMock.mockReturnValueOnce(json(202, { message: 'We have sent you a new link to confirm your e-mail address.' }));
    renderOnDashboard(<EmailVerificationNotice />);

    expect(screen.getByRole('region', { name: 'Your e-mail address is not verified' }).textContent).toContain('sandy@example.com');
    fireEvent.click(screen.getByRole('button', { name: 'Resend the e-mail' }));

    expect((await screen.findByRole('status')).textContent).toBe('We have sent you a new link to confirm your e-mail address.');
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/auth/verify-email/resend');
  });

  it('says why when no e-mail could be sent', async () => {
    const message = 'We have sent several verification e-mails already. Try again in 15 minutes.';
    fetchMock.mockReturnValueOnce(json(429, { error: { code: 'RATE_LIMITED', message } }));
    renderOnDashboard(<EmailVerificationNotice />);
    fireEvent.click(screen.getByRole('button', { name: 'Resend the e-mail' }));
    expect((await screen.findByRole('alert')).textContent).toBe(message);
  });

  it('is not there for a verified user', () => {
    setSessionUser({ ...sandy, emailVerified: true });
    renderOnDashboard(<EmailVerificationNotice />);
    expect(screen.queryByText('Your e-mail address is not verified')).toBeNull();
  });
});

describe('the change-password form', () => {
  function fill(current: string, next: string, confirm = next) {
    fireEvent.change(screen.getByLabelText('Current Password'), { target: { value: current } });
    fireEvent.change(screen.getByLabelText('New Password'), { target: { value: next } });
    fireEvent.change(screen.getByLabelText('Confirm New Password'), { target: { value: confirm } });
    fireEvent.click(screen.getByRole('button', { name: 'Change password' }));
  }

  it('sends the current and the new password, says it is done and empties the fields', async () => {
    fetchMock.mockReturnValueOnce(json(200, { user: sandy }));
    renderOnDashboard(<ChangePasswordForm />);
    fill('mizzen-mast-at-dawn', 'spinnaker-in-the-wind');

    expect((await screen.findByRole('status')).textContent).toBe('Your password has been changed. Other devices have been logged out.');
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/auth/password');
    expect(sentBody()).toEqual({
      currentPassword: 'mizzen-mast-at-dawn',
      password: 'spinnaker-in-the-wind',
      confirmPassword: 'spinnaker-in-the-wind',
    });
    await waitFor(() => expect((screen.getByLabelText('Current Password') as HTMLInputElement).value).toBe(''));
  });

  it("lists the API's reasons and keeps what was typed", async () => {
    fetchMock.mockReturnValueOnce(
      json(400, {
        error: { code: 'VALIDATION', message: 'Your current password is wrong.', details: ['Your current password is wrong.'] },
      }),
    );
    renderOnDashboard(<ChangePasswordForm />);
    fill('guess', 'spinnaker-in-the-wind');

    expect((await screen.findByRole('alert')).textContent).toBe('Your current password is wrong.');
    expect((screen.getByLabelText('New Password') as HTMLInputElement).value).toBe('spinnaker-in-the-wind');
  });

  it('catches a differing confirmation without asking the API', async () => {
    renderOnDashboard(<ChangePasswordForm />);
    fill('mizzen-mast-at-dawn', 'spinnaker-in-the-wind', 'spinnaker');
    expect((await screen.findByRole('alert')).textContent).toBe("Passwords don't match!");
    expect(fetchMock).not.toHaveBeenCalled();
  });
});

describe('log out of all devices', () => {
  it('ends every session and goes to /login with a note', async () => {
    fetchMock.mockReturnValueOnce(noContent());
    renderOnDashboard(<SignOutEverywhere />);
    fireEvent.click(screen.getByRole('button', { name: 'Log out of all devices' }));

    expect(await screen.findByRole('heading', { name: 'log in' }, { timeout: 5000 })).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe('You have been logged out on all devices.');
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/auth/logout-everywhere');
    expect($session.get().user).toBeNull();
  });

  it('stays and says why when it failed', async () => {
    fetchMock.mockReturnValueOnce(json(503, { error: { code: 'SERVICE_UNAVAILABLE', message: 'Service unavailable' } }));
    renderOnDashboard(<SignOutEverywhere />);
    fireEvent.click(screen.getByRole('button', { name: 'Log out of all devices' }));

    expect((await screen.findByRole('alert')).textContent).toBe('Service unavailable');
    expect(screen.getByRole('button', { name: 'Log out of all devices' })).toBeTruthy();
    expect($session.get().user).toEqual(sandy);
  });
});
