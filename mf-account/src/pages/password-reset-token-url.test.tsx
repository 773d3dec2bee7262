import { fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import Login from './login';
import PasswordResetConfirm from './password-reset-confirm';
import { fetchMock, stubApiInEveryTest } from '../test/api-stub';

stubApiInEveryTest();

function Where() {
  const location = useLocation();
  return <output aria-label="location">{location.pathname + location.search}</output>;
}

// The reset token is a password for the account until it is used: once the page has it, it must
// leave the address bar, so it is not kept in the history, synced to other devices, shown on a
// shared screen or sent on as part of a Referer.
describe('the password-reset link', () => {
  it('takes the token out of the address as soon as the page has read it, and still uses it', async () => {
    fetchMock.mockReturnValueOnce(Promise.resolve(new Response(null, { status: 204 })));
    render(
      <MemoryRouter initialEntries={['/password-reset/confirm?token=secret-reset-token']}>
        <Routes>
          <Route path="/password-reset/confirm" element={<PasswordResetConfirm />} />
          <Route path="/login" element={<Login />} />
        </Routes>
        <Where />
      </MemoryRouter>,
    );

    expect(screen.getByRole('heading', { name: 'Choose a new password' })).toBeTruthy();
    expect(screen.getByLabelText('location').textContent).toBe('/password-reset/confirm');

    fireEvent.change(screen.getByLabelText('New Password'), { target: { value: 'spinnaker-in-the-wind' } });
    fireEvent.change(screen.getByLabelText('Confirm New Password'), { target: { value: 'spinnaker-in-the-wind' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save new password' }));

    expect(await screen.findByRole('heading', { name: 'log in' }, { timeout: 5000 })).toBeTruthy();
    expect(JSON.parse(String(fetchMock.mock.calls[0]?.[1].body))).toMatchObject({ token: 'secret-reset-token' });
  });
});
