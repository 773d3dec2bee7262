import { useStore } from '@nanostores/react';
import { permissionsOf, type Permission } from '@boatshop/contract/constants';
import { $session } from '@boatshop/state';

/**
 * Whether the signed-in person's role allows a permission, to leave out what they may not do.
 * Only the page: the API refuses the same (403) whatever the page shows. Read from the session
 * with this remote's own copy of the role table, so it works under a shell whose shared core
 * predates staff roles.
 */
export function useCan(): (permission: Permission) => boolean {
  const { user } = useStore($session);
  const permissions = user ? permissionsOf(user.userRoles) : [];
  return (permission) => permissions.includes(permission);
}
