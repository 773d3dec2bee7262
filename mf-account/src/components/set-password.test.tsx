import { fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { beforeEach, describe, expect, it } from 'vitest';
import type { SessionUser } from '@boatshop/contract';
import { setSessionUser } from '@boatshop/state';
import { $passwordChange } from '../identity/account-security';
import { ChangePasswordForm } from './change-password-form';
import { fetchMock, json, stubApiInEveryTest } from '../test/api-stub';

stubApiInEveryTest();

const grace: SessionUser = {
  id: 'u2',
  displayName: 'Grace Sailor',
  email: 'grace@example.com',
  userRoles: ['user'],
  emailVerified: true,
  hasPassword: false,
};

beforeEach(() => {
  $passwordChange.set({ status: 'idle', errors: [] });
});

// An account that signs in only through the provider has no current password: a change form could
// only answer "Your current password is wrong". It gets a link by e-mail to set one instead.
describe('the password section for an account without a password', () => {
  it('offers "Set a password" by e-mail instead of the change form', async () => {
    setSessionUser(grace);
    fetchMock.mockReturnValueOnce(
      json(202, { message: 'If an account exists for this e-mail, we have sent a link to reset the password.' }),
    );
    render(
      <MemoryRouter>
        <ChangePasswordForm />
      </MemoryRouter>,
    );

    expect(screen.getByRole('heading', { name: 'Set a password' })).toBeTruthy();
    expect(screen.queryByLabelText('Current Password')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'E-mail me a link to set a password' }));

    expect(await screen.findByText('We have sent a link to grace@example.com to set your password.')).toBeTruthy();
    const call = fetchMock.mock.calls.find((c) => String(c[0]).includes('/auth/password-reset'));
    expect(JSON.parse(String(call?.[1].body))).toEqual({ email: 'grace@example.com' });
  });

  it('keeps the change form for an account with a password', () => {
    setSessionUser({ ...grace, hasPassword: true });
    render(
      <MemoryRouter>
        <ChangePasswordForm />
      </MemoryRouter>,
    );
    expect(screen.getByRole('heading', { name: 'Change password' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Set a password' })).toBeNull();
  });
});
