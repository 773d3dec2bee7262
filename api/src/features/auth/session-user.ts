import type { SessionUser } from '@boatshop/contract';
import { staffRoleOf } from '@boatshop/contract/constants';
import type { AuthUser } from '../users/users.repository.js';

/**
 * Shells released before staff roles know staff by the role `admin`: a staff member's session
 * lists it beside the staff role, so such a shell still opens the admin area. It grants nothing:
 * the API checks the staff role's permissions on every admin route, and `admin` is no staff role.
 */
const STAFF_MARK_OF_EARLIER_SHELLS = 'admin';

/** The signed-in user as every front end sees it (the contract's SessionUser). */
export function toSessionUser(user: AuthUser): SessionUser {
  return {
    id: user.id,
    displayName: user.displayName,
    email: user.email,
    userRoles: staffRoleOf(user.roles) ? [...user.roles, STAFF_MARK_OF_EARLIER_SHELLS] : user.roles,
    emailVerified: user.emailVerified,
    hasPassword: user.hasPassword,
  };
}

/** Deliberately loose: a typo check for forms, not RFC 5322. The e-mail that arrives is the real proof. */
export function looksLikeEmail(value: string): boolean {
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value.trim());
}
