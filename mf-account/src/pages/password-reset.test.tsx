import { fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { $resetPasswordSuccess } from '../identity/identity';
import Login from './login';
import PasswordReset from './password-reset';
import PasswordResetConfirm from './password-reset-confirm';
import { fetchMock, json, stubApiInEveryTest } from '../test/api-stub';

stubApiInEveryTest();

function renderAt(url: string) {
  render(
    <MemoryRouter initialEntries={[url]}>
      <Routes>
        <Route path="/password-reset" element={<PasswordReset />} />
        <Route path="/password-reset/confirm" element={<PasswordResetConfirm />} />
        <Route path="/login" element={<Login />} />
      </Routes>
    </MemoryRouter>,
  );
}

describe('password reset pages', () => {
  it('after a successful request, resets the user state and goes to /login with a note that the e-mail was sent', async () => {
    const note = 'If an account exists for this e-mail, we have sent it a link to choose a new password.';
    fetchMock.mockReturnValueOnce(json(202, { message: note }));
    renderAt('/password-reset');
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'sandy@example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send email' }));

    expect(await screen.findByRole('heading', { name: 'log in' }, { timeout: 5000 })).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe(note);
    expect($resetPasswordSuccess.get()).toBe(false);
  });

  it('shows a failed request in the error list and stays', async () => {
    fetchMock.mockReturnValueOnce(
      json(429, { error: { code: 'RATE_LIMITED', message: 'Too many reset requests for this e-mail. Try again in 15 minutes.' } }),
    );
    renderAt('/password-reset');
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'sandy@example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send email' }));

    expect((await screen.findByRole('alert', {}, { timeout: 5000 })).textContent).toBe(
      'Too many reset requests for this e-mail. Try again in 15 minutes.',
    );
    expect(screen.getByRole('heading', { name: 'Reset password' })).toBeTruthy();
  });

  it("sets the new password with the link's token, then goes to /login", async () => {
    fetchMock.mockReturnValueOnce(Promise.resolve(new Response(null, { status: 204 })));
    renderAt('/password-reset/confirm?token=abc123');
    fireEvent.change(screen.getByLabelText('New Password'), { target: { value: 'spinnaker-in-the-wind' } });
    fireEvent.change(screen.getByLabelText('Confirm New Password'), { target: { value: 'spinnaker-in-the-wind' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save new password' }));

    expect(await screen.findByRole('heading', { name: 'log in' }, { timeout: 5000 })).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe('Your password has been changed. Log in with your new password.');
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/auth/password-reset/confirm');
    expect(JSON.parse(String(fetchMock.mock.calls[0]?.[1].body))).toEqual({
      token: 'abc123',
      password: 'spinnaker-in-the-wind',
      confirmPassword: 'spinnaker-in-the-wind',
    });
  });

  it('lists why an expired link did not work', async () => {
    const invalid = 'This reset link is invalid, expired or already used. Ask for a new one.';
    fetchMock.mockReturnValueOnce(json(400, { error: { code: 'VALIDATION', message: invalid, details: [invalid] } }));
    renderAt('/password-reset/confirm?token=old');
    fireEvent.change(screen.getByLabelText('New Password'), { target: { value: 'spinnaker-in-the-wind' } });
    fireEvent.change(screen.getByLabelText('Confirm New Password'), { target: { value: 'spinnaker-in-the-wind' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save new password' }));

    expect((await screen.findByRole('alert', {}, { timeout: 5000 })).textContent).toBe(invalid);
    expect(screen.getByRole('link', { name: 'Ask for a new link' })).toBeTruthy();
  });
});
