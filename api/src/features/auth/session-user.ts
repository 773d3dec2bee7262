import type { SessionUser } from '@boatshop/contract';
import type { AuthUser } from '../users/users.repository.js';

/** The signed-in user as every front end sees it (the contract's SessionUser). */
export function toSessionUser(user: AuthUser): SessionUser {
  return {
    id: user.id,
    displayName: user.displayName,
    email: user.email,
    userRoles: user.roles,
    emailVerified: user.emailVerified,
    hasPassword: user.hasPassword,
  };
}

/** Deliberately loose: a typo check for forms, not RFC 5322. The e-mail that arrives is the real proof. */
export function looksLikeEmail(value: string): boolean {
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value.trim());
}
