import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { describe, expect, it, vi } from 'vitest';
import Login from './login';
import { fetchMock, json, stubApiInEveryTest } from '../test/api-stub';

stubApiInEveryTest({ signedOut: true });

function renderLogin(state?: unknown) {
  render(
    <MemoryRouter initialEntries={[{ pathname: '/login', state }]}>
      <Routes>
        <Route path="/login" element={<Login />} />
        <Route path="/" element={<p>home page</p>} />
      </Routes>
    </MemoryRouter>,
  );
}

function fillIn(label: string, value: string) {
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
}

describe('login page', () => {
  it("has the spec's headline, fields, buttons and reset link", () => {
    renderLogin();
    expect(screen.getByRole('heading', { name: 'log in' })).toBeTruthy();
    expect(screen.getByLabelText('Email').getAttribute('type')).toBe('email');
    expect(screen.getByLabelText('Password').getAttribute('type')).toBe('password');
    expect(screen.getByRole('button', { name: 'Log in' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Sign in with Google' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Reset password' }).getAttribute('href')).toBe('/password-reset');
  });

  it('signs in and goes to /', async () => {
    fetchMock.mockReturnValueOnce(
      json(200, { user: { id: 'u1', displayName: 'Sandy', email: 'sandy@example.com', userRoles: ['user'], emailVerified: true } }),
    );
    renderLogin();
    fillIn('Email', 'sandy@example.com');
    fillIn('Password', 'mizzen-mast-at-dawn');
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }));

    expect(await screen.findByText('home page')).toBeTruthy();
    expect(JSON.parse(String(fetchMock.mock.calls[0]?.[1].body))).toEqual({ email: 'sandy@example.com', password: 'mizzen-mast-at-dawn' });
  });

  it('lists the one message for wrong credentials above the form', async () => {
    fetchMock.mockReturnValueOnce(
      json(401, { error: { code: 'WRONG_CREDENTIALS', message: 'Wrong e-mail or password.', details: ['Wrong e-mail or password.'] } }),
    );
    renderLogin();
    fillIn('Email', 'sandy@example.com');
    fillIn('Password', 'nope-nope-nope');
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }));

    expect((await screen.findByRole('alert')).textContent).toBe('Wrong e-mail or password.');
    // The error list comes from the session store, the button's busy flag from the page a moment later.
    await waitFor(() => expect(screen.getByRole('button', { name: 'Log in' })).toHaveProperty('disabled', false));
  });

  it('shows the note another page sent along, e.g. that a reset e-mail is on its way', () => {
    renderLogin({ notice: 'If an account exists for this e-mail, we have sent it a link to choose a new password.' });
    expect(screen.getByRole('status').textContent).toBe(
      'If an account exists for this e-mail, we have sent it a link to choose a new password.',
    );
  });

  it('opens the social sign-in popup from the Google button', () => {
    const open = vi.fn(() => null);
    vi.stubGlobal('open', open);
    renderLogin();
    fireEvent.click(screen.getByRole('button', { name: 'Sign in with Google' }));
    expect(open).toHaveBeenCalledWith('/api/auth/oidc/start', 'boatshop-oidc', expect.any(String));
  });
});
