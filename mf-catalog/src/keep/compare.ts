import { persistentAtom } from '@nanostores/persistent';
import { atom } from 'nanostores';
import { COMPARE_MAX, isUuid } from '@boatshop/contract/constants';

// The boats a visitor sets side by side (at most COMPARE_MAX), kept in localStorage so guests
// compare too and the tray survives a reload. The compare page itself reads its boats from its
// address (/compare?ids=…), so a shared link shows the same boats to anyone.

export interface CompareItem {
  id: string;
  name: string;
}

export const $compare = persistentAtom<CompareItem[]>('boatshop:compare', [], {
  encode: JSON.stringify,
  // Anything else stored under the key (an older shape, a hand edit) reads as an empty tray.
  decode: (text: string) => {
    try {
      const value: unknown = JSON.parse(text);
      if (!Array.isArray(value)) return [];
      return value
        .filter((item): item is CompareItem => typeof item?.id === 'string' && isUuid(item.id) && typeof item.name === 'string')
        .slice(0, COMPARE_MAX);
    } catch {
      return [];
    }
  },
});

export const COMPARE_FULL_MESSAGE = `You can compare up to ${COMPARE_MAX} boats. Remove one before adding another.`;

/** What the last add said, for the tray's live region: the message when a fourth boat was refused. */
export const $compareNotice = atom<string | null>(null);

/** Adds a boat; false (and the notice) when COMPARE_MAX boats are there already. */
export function addToCompare(item: CompareItem): boolean {
  const items = $compare.get();
  if (items.some((kept) => kept.id === item.id)) return true;
  if (items.length >= COMPARE_MAX) {
    $compareNotice.set(COMPARE_FULL_MESSAGE);
    return false;
  }
  $compare.set([...items, { id: item.id, name: item.name }]);
  $compareNotice.set(null);
  return true;
}

export function removeFromCompare(id: string): void {
  $compare.set($compare.get().filter((item) => item.id !== id));
  $compareNotice.set(null);
}

export function clearCompare(): void {
  $compare.set([]);
  $compareNotice.set(null);
}

/** The compare page's address for these boats. */
export const comparePath = (ids: readonly string[]) => `/compare?ids=${ids.join(',')}`;

/** The boats a compare address names: UUIDs only, each once, at most COMPARE_MAX. */
export function idsFromAddress(raw: string | null): string[] {
  return [
    ...new Set(
      (raw ?? '')
        .split(',')
        .map((id) => id.trim())
        .filter(isUuid),
    ),
  ].slice(0, COMPARE_MAX);
}
