import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { setSessionUser } from '@boatshop/state';
import Dashboard from './dashboard';
import Order from './order';
import PasswordResetConfirm from './password-reset-confirm';

afterEach(() => {
  cleanup();
  setSessionUser(null);
});

describe('account pages', () => {
  it("show the order ID from the shell's route", () => {
    render(
      <MemoryRouter initialEntries={['/order/7d1f']}>
        <Routes>
          <Route path="/order/:orderID" element={<Order />} />
        </Routes>
      </MemoryRouter>,
    );

    expect(screen.getByRole('heading', { name: 'Order 7d1f' })).toBeTruthy();
  });

  it('greet the signed-in user from the shared session store', () => {
    setSessionUser({ id: 'u1', displayName: 'Sandy Shopper', email: 'shopper@example.com', userRoles: ['user'] });
    render(<Dashboard />);

    expect(screen.getByRole('heading', { name: 'Order history' })).toBeTruthy();
    expect(screen.getByText('Signed in as Sandy Shopper')).toBeTruthy();
  });

  it('say so when a reset link has no token', () => {
    render(
      <MemoryRouter initialEntries={['/password-reset/confirm']}>
        <PasswordResetConfirm />
      </MemoryRouter>,
    );

    expect(screen.getByText('This link has no reset token.')).toBeTruthy();
  });
});
