import { useStore } from '@nanostores/react';
import { Link, NavLink, Outlet } from 'react-router-dom';
import type { Permission } from '@boatshop/contract/constants';
import { $permissions, $session, signOut } from '@boatshop/state';
import { Footer } from './footer';
import { Header } from './header';

/**
 * Header, content, footer. The home page's variant lets its content run edge to edge (the
 * category tiles); the other pads it inside the page width.
 */
export function MainLayout({ fullBleed = false }: { fullBleed?: boolean }) {
  return (
    <div className="shell-page">
      <Header />
      <main id="content" className={fullBleed ? 'shell-main shell-main--full-bleed' : 'shell-main bs-container'}>
        <Outlet />
      </main>
      <Footer />
    </div>
  );
}

/**
 * Dashboard, order and admin pages: the header and footer around a sidebar and the content.
 * The admin sidebar leads to the admin pages the person's role may open (NavLink marks the current one).
 */
/** The admin sidebar: each link shown to the roles holding its permission (the contract's ROLE_PERMISSIONS). */
const ADMIN_LINKS: readonly { to: string; label: string; permission: Permission }[] = [
  { to: '/admin', label: 'Products', permission: 'catalog.read' },
  { to: '/admin/orders', label: 'Orders', permission: 'orders.read' },
  { to: '/admin/leads', label: 'Leads', permission: 'leads.read' },
  { to: '/admin/staff', label: 'Staff', permission: 'staff.manage' },
  { to: '/admin/audit', label: 'Audit log', permission: 'audit.read' },
  { to: '/admin/invoices', label: 'Invoices', permission: 'invoices.read' },
];

export function DashboardLayout({ home }: { home: '/dashboard' | '/admin' }) {
  const { user } = useStore($session);
  const permissions = useStore($permissions);
  return (
    <div className="shell-page">
      <Header />
      <div className="bs-container shell-dashboard">
        <aside className="shell-dashboard__sidebar" aria-label="Account">
          {user ? <p className="shell-dashboard__user">{user.displayName}</p> : null}
          <nav aria-label="Dashboard">
            <ul>
              {home === '/admin' ? (
                // `end`: /admin/orders is not the products page, so Products is not marked current there.
                ADMIN_LINKS.filter((link) => permissions.includes(link.permission)).map((link) => (
                  <li key={link.to}>
                    <NavLink to={link.to} end={link.to === '/admin'}>
                      {link.label}
                    </NavLink>
                  </li>
                ))
              ) : (
                <li>
                  <Link to={home}>Home</Link>
                </li>
              )}
              <li>
                <button type="button" className="shell-link-button" onClick={() => void signOut()}>
                  Sign out
                </button>
              </li>
            </ul>
          </nav>
        </aside>
        <main id="content" className="shell-main shell-dashboard__content">
          <Outlet />
        </main>
      </div>
      <Footer />
    </div>
  );
}
