import type { SessionUser } from '@boatshop/contract';

/** The signed-in users of the shell's tests: a shopper, and an administrator. */
export const shopper: SessionUser = {
  id: 'u1',
  displayName: 'Sandy Shopper',
  email: 'shopper@example.com',
  userRoles: ['user'],
  emailVerified: true,
  hasPassword: true,
};

export const admin: SessionUser = {
  id: 'u2',
  displayName: 'Ada Admin',
  email: 'admin@example.com',
  userRoles: ['user', 'owner'],
  emailVerified: true,
  hasPassword: true,
};
