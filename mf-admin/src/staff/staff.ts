import { atom } from 'nanostores';
import type { StaffList, StaffRole } from '@boatshop/contract';
import { isApiError } from '@boatshop/contract/client';
import { checkSession } from '@boatshop/state';
import { client } from '../api';
import { withStepUp } from './step-up';

export interface StaffState {
  status: 'idle' | 'loading' | 'ready' | 'failed';
  list: StaffList;
  error: string | null;
}

/** The staff page's people and open invitations. */
export const $staff = atom<StaffState>({ status: 'idle', list: { staff: [], invitations: [] }, error: null });

export function messageOf(error: unknown, fallback: string): string {
  return isApiError(error) && error.status > 0 && error.status < 500 ? error.message : fallback;
}

export async function loadStaff(): Promise<void> {
  $staff.set({ ...$staff.get(), status: 'loading', error: null });
  try {
    $staff.set({ status: 'ready', list: await client.admin.staff.list(), error: null });
  } catch (error) {
    // A 403 may mean this person's own role just changed: the shared session learns it.
    if (isApiError(error) && (error.status === 401 || error.status === 403)) void checkSession();
    $staff.set({ ...$staff.get(), status: 'failed', error: messageOf(error, 'The staff list could not be loaded.') });
  }
}

/** Each action answers with the refreshed list, or throws the API's reason for the page to show. */
export async function inviteStaff(email: string, role: StaffRole): Promise<void> {
  await withStepUp(() => client.admin.staff.invite({ email, role }));
  await loadStaff();
}

export async function changeStaffRole(id: string, role: StaffRole): Promise<void> {
  await withStepUp(() => client.admin.staff.setRole(id, { role }));
  await loadStaff();
  void checkSession();
}

export async function removeStaff(id: string): Promise<void> {
  await withStepUp(() => client.admin.staff.remove(id));
  await loadStaff();
  void checkSession();
}

export async function withdrawInvitation(id: string): Promise<void> {
  await client.admin.staff.revokeInvitation(id);
  await loadStaff();
}
