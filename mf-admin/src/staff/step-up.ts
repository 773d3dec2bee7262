import { atom } from 'nanostores';
import { isApiError } from '@boatshop/contract/client';
import { client } from '../api';
import { messageOf } from './staff';

export interface StepUpState {
  open: boolean;
  busy: boolean;
  error: string | null;
}

/** The password prompt of a sensitive action (large refunds and cancellations, role changes, exports). */
export const $stepUp = atom<StepUpState>({ open: false, busy: false, error: null });

let waiting: { resolve: () => void; reject: () => void } | null = null;

function askForPassword(): Promise<void> {
  waiting?.reject();
  $stepUp.set({ open: true, busy: false, error: null });
  return new Promise((resolve, reject) => {
    waiting = { resolve, reject };
  });
}

export async function submitStepUp(password: string): Promise<void> {
  $stepUp.set({ ...$stepUp.get(), busy: true, error: null });
  try {
    await client.staff.stepUp({ password });
    $stepUp.set({ open: false, busy: false, error: null });
    waiting?.resolve();
    waiting = null;
  } catch (error) {
    $stepUp.set({ open: true, busy: false, error: messageOf(error, 'The password could not be checked. Try again.') });
  }
}

export function cancelStepUp(): void {
  $stepUp.set({ open: false, busy: false, error: null });
  waiting?.reject();
  waiting = null;
}

/**
 * Runs a sensitive action; when the API answers 403 STEP_UP_REQUIRED it asks for the password
 * inline and runs the action once more. Cancelling the prompt rejects with the API's refusal.
 */
export async function withStepUp<T>(action: () => Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (error) {
    if (!isApiError(error) || error.code !== 'STEP_UP_REQUIRED') throw error;
    await askForPassword().catch(() => {
      throw error;
    });
    return action();
  }
}

/** Before a plain download (the CSV export): asks for the password first unless the session is fresh. */
export async function ensureSteppedUp(): Promise<void> {
  const { freshUntil } = await client.staff.stepUpStatus();
  if (!freshUntil) await askForPassword();
}
