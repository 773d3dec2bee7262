import type { StaffRole } from '@boatshop/contract/constants';
import { setSessionUser } from '@boatshop/state';

/** The shared session as the shell would hold it for a staff member of this role. */
export function signInAs(role: StaffRole): void {
  setSessionUser({
    id: `u-${role}`,
    displayName: `Test ${role}`,
    email: `${role}@example.test`,
    userRoles: ['user', role],
    emailVerified: true,
    hasPassword: true,
  });
}
