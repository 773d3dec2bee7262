import { ROUTE_PATHS, isApiError, type ResponseOf } from '@boatshop/contract/client';
import { client } from '../api';

export type ViewingSlots = ResponseOf<typeof ROUTE_PATHS.viewings.slots>;
export type BookedViewing = ResponseOf<typeof ROUTE_PATHS.viewings.book>;
export type GuestReceipt = ResponseOf<typeof ROUTE_PATHS.viewings.bookAsGuest>;
export type ViewingKind = ViewingSlots['kind'];

const messageOf = (error: unknown, fallback: string) =>
  isApiError(error) && error.status > 0 && error.status < 500 ? error.message : fallback;

/** The boat's marina and free slots for that kind of booking, or why there are none. */
export async function loadViewingSlots(productId: string, kind: ViewingKind = 'viewing'): Promise<ViewingSlots | { problem: string }> {
  try {
    return await client.request(ROUTE_PATHS.viewings.slots, { query: { productId, kind } });
  } catch (error) {
    return { problem: messageOf(error, 'The viewing times could not be loaded. Please try again.') };
  }
}

/** Books the slot: the viewing, or the reason it was refused (e.g. someone took the time first). */
export async function bookViewing(
  productId: string,
  startsAt: string,
  kind: ViewingKind = 'viewing',
): Promise<BookedViewing | { problem: string }> {
  try {
    return await client.request(ROUTE_PATHS.viewings.book, { body: { productId, startsAt, kind } });
  } catch (error) {
    return { problem: messageOf(error, 'The viewing could not be booked. Please try again.') };
  }
}

/** A guest's booking: held until the e-mailed link is opened, or the reasons it was refused. */
export async function bookViewingAsGuest(body: {
  productId: string;
  startsAt: string;
  kind: ViewingKind;
  name: string;
  email: string;
  website: string;
}): Promise<GuestReceipt | { problem: string }> {
  try {
    return await client.request(ROUTE_PATHS.viewings.bookAsGuest, { body });
  } catch (error) {
    return { problem: messageOf(error, 'The viewing could not be booked. Please try again.') };
  }
}

/** The slots grouped by their day on the marina's clock ("DD/MM/YYYY"), in order. */
export function slotsByDay(slots: ViewingSlots['slots']): [string, ViewingSlots['slots']][] {
  const days = new Map<string, ViewingSlots['slots']>();
  for (const slot of slots) {
    const day = slot.label.slice(0, 10);
    days.set(day, [...(days.get(day) ?? []), slot]);
  }
  return [...days];
}
