import type { ReactNode } from 'react';
import { useStore } from '@nanostores/react';
import { Navigate, Outlet } from 'react-router-dom';
import { $isAdmin, $session } from '@boatshop/state';

/** Until the first session check has answered, a guard cannot tell; it shows this instead of guessing. */
function CheckingSession() {
  return (
    <p className="shell-remote-loading" role="status">
      Loading…
    </p>
  );
}

function SessionGate({ allow, redirectTo, children }: { allow: 'user' | 'admin' | 'guest'; redirectTo: string; children?: ReactNode }) {
  const session = useStore($session);
  const isAdmin = useStore($isAdmin);
  if (session.status === 'unknown') return <CheckingSession />;
  const allowed = allow === 'guest' ? session.user === null : allow === 'admin' ? isAdmin : session.user !== null;
  if (!allowed) return <Navigate to={redirectTo} replace />;
  return children ?? <Outlet />;
}

/** /payment, /dashboard, /order/:orderID: signed-in users only, others go to /login. */
export function RequireSession({ children }: { children?: ReactNode }) {
  return (
    <SessionGate allow="user" redirectTo="/login">
      {children}
    </SessionGate>
  );
}

/** /admin and every /admin/* page: administrators only, everyone else goes to /login. Nothing of mf_admin loads before this passes. */
export function RequireAdmin({ children }: { children?: ReactNode }) {
  return (
    <SessionGate allow="admin" redirectTo="/login">
      {children}
    </SessionGate>
  );
}

/** /login, /registration: a signed-in user has no business there and goes to /. */
export function GuestOnly({ children }: { children?: ReactNode }) {
  return (
    <SessionGate allow="guest" redirectTo="/">
      {children}
    </SessionGate>
  );
}
