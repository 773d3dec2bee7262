import { atom, computed } from 'nanostores';
import type { SessionUser } from '@boatshop/contract';
import { permissionsOf, staffRoleOf } from '@boatshop/contract/constants';
import { isApiError, LOGOUT_ROUTE, SESSION_ROUTE } from '@boatshop/contract/request';
import { request } from './api';

export interface SessionState {
  /** 'unknown' until the first session check has answered, so guards can wait instead of redirecting. */
  status: 'unknown' | 'ready';
  user: SessionUser | null;
}

export const $session = atom<SessionState>({ status: 'unknown', user: null });

/** Any staff role (owner, sales, accountant, editor) opens the admin area; what it shows there follows $permissions. */
export const $isAdmin = computed($session, (session) => (session.user ? staffRoleOf(session.user.userRoles) !== null : false));

/** What the signed-in person's role allows (the contract's ROLE_PERMISSIONS); empty for shoppers. */
export const $permissions = computed($session, (session) => (session.user ? permissionsOf(session.user.userRoles) : []));

export function setSessionUser(user: SessionUser | null): void {
  $session.set({ status: 'ready', user });
}

let pendingCheck: Promise<SessionState> | null = null;

/**
 * Asks the API who is signed in (this also hands out the CSRF cookie). Concurrent callers share
 * one request. An unreachable API counts as "nobody signed in": the shop stays browsable and the
 * failure is only logged.
 */
export function checkSession(): Promise<SessionState> {
  pendingCheck ??= request(SESSION_ROUTE, {})
    .then(
      ({ user }) => setSessionUser(user),
      (error: unknown) => {
        console.error('Session check failed', error);
        setSessionUser(null);
      },
    )
    .then(() => $session.get())
    .finally(() => {
      pendingCheck = null;
    });
  return pendingCheck;
}

/**
 * Revokes the session on the server, then forgets the user here. A 401 means the server had
 * already forgotten it. On any other failure the user stays signed in, because the session
 * cookie is still valid: it resolves false and the reason is logged.
 */
export async function signOut(): Promise<boolean> {
  try {
    await request(LOGOUT_ROUTE, {});
  } catch (error) {
    if (!(isApiError(error) && error.status === 401)) {
      console.error('Sign-out failed', error);
      return false;
    }
  }
  setSessionUser(null);
  return true;
}
