import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { setSessionUser } from '@boatshop/state';
import Admin from './admin';

afterEach(() => {
  cleanup();
  setSessionUser(null);
});

describe('Admin page', () => {
  it('names the signed-in administrator from the shared session store', () => {
    setSessionUser({ id: 'u2', displayName: 'Ada Admin', email: 'admin@example.com', userRoles: ['user', 'admin'] });
    render(<Admin />);

    expect(screen.getByRole('heading', { name: 'Manage products' })).toBeTruthy();
    expect(screen.getByText('Signed in as Ada Admin')).toBeTruthy();
  });
});
