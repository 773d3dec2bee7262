import { cleanup, render, screen } from '@testing-library/react';
import { act } from 'react';
import { RouterProvider, createMemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { $session, setSessionUser } from '@boatshop/state';
import { GuestOnly, RequireAdmin, RequireSession } from './guards';
import { admin, shopper } from '../test-users';

function renderAt(path: string) {
  const router = createMemoryRouter(
    [
      { path: '/', element: <h1>Home page</h1> },
      { path: '/login', element: <h1>Login page</h1> },
      {
        path: '/registration',
        element: (
          <GuestOnly>
            <h1>Registration page</h1>
          </GuestOnly>
        ),
      },
      {
        path: '/dashboard',
        element: (
          <RequireSession>
            <h1>Dashboard page</h1>
          </RequireSession>
        ),
      },
      { element: <RequireAdmin />, children: [{ path: '/admin', element: <h1>Admin page</h1> }] },
    ],
    { initialEntries: [path] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

afterEach(() => {
  cleanup();
  $session.set({ status: 'unknown', user: null });
});

describe('route guards', () => {
  it('wait for the first session check instead of redirecting a user who may be signed in', () => {
    const router = renderAt('/dashboard');

    expect(screen.getByRole('status').textContent).toBe('Loading…');
    act(() => setSessionUser(shopper));

    expect(screen.getByRole('heading', { name: 'Dashboard page' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/dashboard');
  });

  it('send a visitor from a page that needs a session to /login', () => {
    setSessionUser(null);
    const router = renderAt('/dashboard');

    expect(screen.getByRole('heading', { name: 'Login page' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/login');
  });

  it('send a signed-in non-admin from /admin to /login and let an admin in', () => {
    setSessionUser(shopper);
    const router = renderAt('/admin');
    expect(router.state.location.pathname).toBe('/login');

    cleanup();
    setSessionUser(admin);
    renderAt('/admin');
    expect(screen.getByRole('heading', { name: 'Admin page' })).toBeTruthy();
  });

  it('send a signed-in user away from a guests-only page to /', () => {
    setSessionUser(shopper);
    const router = renderAt('/registration');

    expect(router.state.location.pathname).toBe('/');
    expect(screen.getByRole('heading', { name: 'Home page' })).toBeTruthy();
  });
});
