import { useStore } from '@nanostores/react';
import type { Permission } from '@boatshop/contract/constants';
import { $permissions } from '@boatshop/state';

/**
 * Whether the signed-in person's role allows a permission, to leave out what they may not do.
 * Only the page: the API refuses the same (403) whatever the page shows.
 */
export function useCan(): (permission: Permission) => boolean {
  const permissions = useStore($permissions);
  return (permission) => permissions.includes(permission);
}
