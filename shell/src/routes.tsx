import type { RouteObject } from 'react-router-dom';
import { GuestOnly, RequireAdmin, RequireSession } from './guards/guards';
import { DashboardLayout, MainLayout } from './layouts/layouts';
import { NotFound } from './pages/not-found';
import { RemotePage } from './remotes/remote-page';

/** Routes → remote pages (docs/ARCHITECTURE.md), with the layouts and guards of SPEC §2. */
export const routes: RouteObject[] = [
  {
    element: <MainLayout fullBleed />,
    children: [{ index: true, element: <RemotePage remote="mf_catalog" page="Home" /> }],
  },
  {
    element: <MainLayout />,
    children: [
      { path: 'search', element: <RemotePage remote="mf_catalog" page="Search" /> },
      { path: 'search/:filterType', element: <RemotePage remote="mf_catalog" page="Search" /> },
      { path: 'product/:productID', element: <RemotePage remote="mf_catalog" page="Product" /> },
      { path: 'cart', element: <RemotePage remote="mf_cart_checkout" page="Cart" /> },
      {
        path: 'payment',
        element: (
          <RequireSession>
            <RemotePage remote="mf_cart_checkout" page="Payment" />
          </RequireSession>
        ),
      },
      {
        path: 'login',
        element: (
          <GuestOnly>
            <RemotePage remote="mf_account" page="Login" />
          </GuestOnly>
        ),
      },
      {
        path: 'registration',
        element: (
          <GuestOnly>
            <RemotePage remote="mf_account" page="Registration" />
          </GuestOnly>
        ),
      },
      { path: 'password-reset', element: <RemotePage remote="mf_account" page="PasswordReset" /> },
      { path: 'password-reset/confirm', element: <RemotePage remote="mf_account" page="PasswordResetConfirm" /> },
      { path: 'verify-email', element: <RemotePage remote="mf_account" page="VerifyEmail" /> },
      { path: '*', element: <NotFound /> },
    ],
  },
  {
    element: <RequireSession />,
    children: [
      {
        element: <DashboardLayout home="/dashboard" />,
        children: [
          { path: 'dashboard', element: <RemotePage remote="mf_account" page="Dashboard" /> },
          { path: 'order/:orderID', element: <RemotePage remote="mf_account" page="Order" /> },
        ],
      },
    ],
  },
  {
    element: <RequireAdmin />,
    children: [
      {
        element: <DashboardLayout home="/admin" />,
        // Every /admin/* path passes the admin guard first, an unknown one included: nobody
        // learns from a not-found page which admin pages exist.
        children: [
          { path: 'admin', element: <RemotePage remote="mf_admin" page="Admin" /> },
          { path: 'admin/orders', element: <RemotePage remote="mf_admin" page="AdminOrders" /> },
          { path: 'admin/orders/:orderID', element: <RemotePage remote="mf_admin" page="AdminOrder" /> },
          { path: 'admin/*', element: <NotFound /> },
        ],
      },
    ],
  },
];
