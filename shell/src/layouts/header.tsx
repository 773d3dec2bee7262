import { useId, useState } from 'react';
import { Link, NavLink, useLocation } from 'react-router-dom';
import { $cartCount, $isAdmin, $session, signOut, type SessionState } from '@boatshop/state';
import { useStoreAfterHydration } from '@boatshop/web-shared/after-hydration';

/** The session as the shell's server renders the header: nobody signed in. */
const SIGNED_OUT: SessionState = { status: 'unknown', user: null };

/**
 * The header is part of the frame the shell's server renders for every visitor alike: the
 * sign-in state, the cart count and the admin toolbar render as for a visitor without a session
 * there and while the browser hydrates, and are drawn right after (the account links sit at the
 * bar's end, so nothing else moves).
 */
export function Header() {
  const { user } = useStoreAfterHydration($session, SIGNED_OUT);
  const isAdmin = useStoreAfterHydration($isAdmin, false);
  const cartCount = useStoreAfterHydration($cartCount, 0);
  const menuId = useId();
  const [menuOpen, setMenuOpen] = useState(false);
  const { pathname } = useLocation();
  // The small-screen menu closes when the visitor has picked a page.
  const [menuPath, setMenuPath] = useState(pathname);
  if (menuPath !== pathname) {
    setMenuPath(pathname);
    setMenuOpen(false);
  }

  return (
    <>
      <a className="shell-skip-link" href="#content">
        Skip to content
      </a>
      {isAdmin ? (
        <nav className="shell-admin-toolbar" aria-label="Admin toolbar">
          <div className="bs-container">
            <Link to="/admin">My admin</Link>
          </div>
        </nav>
      ) : null}
      <header className="shell-header">
        <div className="bs-container shell-header__bar">
          <Link to="/" className="shell-header__logo" aria-label="Boat shop home">
            <svg className="shell-header__logo-mark" viewBox="0 0 32 32" aria-hidden="true" focusable="false">
              <path d="M15 3 L15 22 L5 22 Z" />
              <path d="M17 7 L17 22 L26 22 Z" />
              <path d="M3 24 H29 L25 29 H7 Z" />
            </svg>
            Boat shop
          </Link>
          <button
            type="button"
            className="shell-header__menu-button"
            aria-expanded={menuOpen}
            aria-controls={menuId}
            onClick={() => setMenuOpen((open) => !open)}
          >
            Menu
          </button>
          <nav id={menuId} className={`shell-nav${menuOpen ? ' shell-nav--open' : ''}`} aria-label="Main">
            <ul className="shell-nav__list">
              <li>
                <NavLink to="/" end>
                  Home
                </NavLink>
              </li>
              <li>
                <NavLink to="/search">Search</NavLink>
              </li>
            </ul>
            <ul className="shell-nav__list shell-nav__list--account">
              {user ? (
                <>
                  <li>
                    <NavLink to="/cart">your cart ({cartCount})</NavLink>
                  </li>
                  <li>
                    <NavLink to="/dashboard">my account</NavLink>
                  </li>
                  <li>
                    <button type="button" className="shell-link-button" onClick={() => void signOut()}>
                      log out
                    </button>
                  </li>
                </>
              ) : (
                <>
                  <li>
                    <NavLink to="/registration">register</NavLink>
                  </li>
                  <li>
                    <NavLink to="/login">log in</NavLink>
                  </li>
                </>
              )}
            </ul>
          </nav>
        </div>
      </header>
    </>
  );
}
