import { atom } from 'nanostores';
import type { SavedAddress, SavedAddressBody } from '@boatshop/contract';
import { ROUTE_PATHS } from '@boatshop/contract/client';
import { client } from '../api';
import { messagesOf } from '../identity/identity';

// The shopper's address book (/api/account/addresses).

export interface AddressBookState {
  status: 'idle' | 'loading' | 'ready' | 'failed';
  addresses: SavedAddress[];
  /** what the last action said: a confirmation or why it failed */
  notice: { kind: 'success' | 'error'; lines: string[] } | null;
}

export const $addressBook = atom<AddressBookState>({ status: 'idle', addresses: [], notice: null });

const notice = (kind: 'success' | 'error', lines: string[]) => $addressBook.set({ ...$addressBook.get(), notice: { kind, lines } });

export async function fetchAddresses(): Promise<void> {
  $addressBook.set({ ...$addressBook.get(), status: 'loading' });
  try {
    const { addresses } = await client.request(ROUTE_PATHS.addresses.list, {});
    $addressBook.set({ ...$addressBook.get(), status: 'ready', addresses });
  } catch (error) {
    console.error('Loading the address book failed', error);
    $addressBook.set({
      ...$addressBook.get(),
      status: 'failed',
      notice: { kind: 'error', lines: messagesOf(error, 'Your addresses could not be loaded.') },
    });
  }
}

/** Saves a new address (no id) or changes one; true when it was saved. */
export async function saveAddress(id: string | null, body: SavedAddressBody): Promise<boolean> {
  try {
    if (id) await client.request(ROUTE_PATHS.addresses.update, { params: { id }, body });
    else await client.request(ROUTE_PATHS.addresses.create, { body });
    await fetchAddresses();
    notice('success', ['The address was saved.']);
    return true;
  } catch (error) {
    console.error('Saving the address failed', error);
    notice('error', messagesOf(error, 'The address could not be saved.'));
    return false;
  }
}

export async function deleteAddress(id: string): Promise<void> {
  try {
    await client.request(ROUTE_PATHS.addresses.remove, { params: { id } });
    await fetchAddresses();
    notice('success', ['The address was deleted.']);
  } catch (error) {
    console.error('Deleting the address failed', error);
    notice('error', messagesOf(error, 'The address could not be deleted.'));
  }
}

export async function makeDefault(id: string): Promise<void> {
  try {
    const { addresses } = await client.request(ROUTE_PATHS.addresses.makeDefault, { params: { id } });
    $addressBook.set({ status: 'ready', addresses, notice: { kind: 'success', lines: ['The default address was changed.'] } });
  } catch (error) {
    console.error('Changing the default address failed', error);
    notice('error', messagesOf(error, 'The default address could not be changed.'));
  }
}
