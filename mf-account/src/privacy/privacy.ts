import { atom } from 'nanostores';
import type { ConsentTopic, PrivacyStatus } from '@boatshop/contract';
import { ROUTE_PATHS } from '@boatshop/contract/client';
import { setSessionUser } from '@boatshop/state';
import { client } from '../api';
import { messagesOf } from '../identity/identity';

// The shopper's own data (/api/account/privacy): consents, the export, erasure.

export interface PrivacyState {
  status: 'idle' | 'loading' | 'ready' | 'failed';
  data: PrivacyStatus | null;
  /** what the last action said: a confirmation or why it failed */
  notice: { kind: 'success' | 'error'; lines: string[] } | null;
}

export const $privacy = atom<PrivacyState>({ status: 'idle', data: null, notice: null });

export async function fetchPrivacy(): Promise<void> {
  $privacy.set({ ...$privacy.get(), status: 'loading' });
  try {
    const data = await client.request(ROUTE_PATHS.privacy.status, {});
    $privacy.set({ ...$privacy.get(), status: 'ready', data });
  } catch (error) {
    console.error('Loading your data settings failed', error);
    $privacy.set({
      ...$privacy.get(),
      status: 'failed',
      notice: { kind: 'error', lines: messagesOf(error, 'Your data settings could not be loaded.') },
    });
  }
}

export async function setConsent(topic: ConsentTopic, granted: boolean): Promise<void> {
  try {
    const data = await client.request(ROUTE_PATHS.privacy.setConsent, { body: { topic, granted } });
    $privacy.set({ status: 'ready', data, notice: { kind: 'success', lines: ['Your choice was saved.'] } });
  } catch (error) {
    console.error('Saving the consent failed', error);
    $privacy.set({ ...$privacy.get(), notice: { kind: 'error', lines: messagesOf(error, 'Your choice could not be saved.') } });
  }
}

export async function requestExport(): Promise<void> {
  try {
    await client.request(ROUTE_PATHS.privacy.requestExport, {});
    await fetchPrivacy();
    $privacy.set({
      ...$privacy.get(),
      notice: { kind: 'success', lines: ['We are preparing your data. You will receive an e-mail with a download link in a few minutes.'] },
    });
  } catch (error) {
    console.error('Asking for the export failed', error);
    $privacy.set({ ...$privacy.get(), notice: { kind: 'error', lines: messagesOf(error, 'The export could not be started.') } });
  }
}

export async function requestErasure(): Promise<void> {
  try {
    await client.request(ROUTE_PATHS.privacy.requestErasure, {});
    await fetchPrivacy();
    $privacy.set({
      ...$privacy.get(),
      notice: { kind: 'success', lines: ['We sent you an e-mail. Open its link to confirm that your account should be erased.'] },
    });
  } catch (error) {
    console.error('Asking for erasure failed', error);
    $privacy.set({ ...$privacy.get(), notice: { kind: 'error', lines: messagesOf(error, 'Your request could not be sent.') } });
  }
}

/** Erases the account with the e-mailed link's token; on success the session is gone. Returns the problems, or none. */
export async function confirmErasure(token: string): Promise<string[]> {
  try {
    await client.request(ROUTE_PATHS.privacy.confirmErasure, { body: { token } });
  } catch (error) {
    console.error('Erasing the account failed', error);
    return messagesOf(error, 'Your account could not be erased.');
  }
  setSessionUser(null);
  return [];
}
