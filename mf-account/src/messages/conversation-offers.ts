import { atom } from 'nanostores';
import { ROUTE_PATHS, isApiError, type ResponseOf } from '@boatshop/contract/client';
import { client } from '../api';

export type ShopperOffer = ResponseOf<typeof ROUTE_PATHS.offers.list>['data'][number];

const messageOf = (error: unknown, fallback: string) =>
  isApiError(error) && error.status > 0 && error.status < 500 ? (error.details[0] ?? error.message) : fallback;

/** The shop's offers in the open conversation, newest first, and what went wrong last. */
export const $offers = atom<{ enquiryId: string; offers: ShopperOffer[]; error: string }>({ enquiryId: '', offers: [], error: '' });

export async function loadOffers(enquiryId: string): Promise<void> {
  try {
    const { data } = await client.request(ROUTE_PATHS.offers.list, { query: { enquiryId } });
    $offers.set({ enquiryId, offers: data, error: '' });
  } catch (error) {
    $offers.set({ enquiryId, offers: [], error: messageOf(error, 'The offers could not be loaded.') });
  }
}

/**
 * The shopper's answer to an offer; the offer as it is now, or null when refused (the message
 * says why, e.g. the offer expired). The list is read again either way.
 */
export async function answerOffer(
  offer: ShopperOffer,
  answer: 'accept' | 'decline' | { priceCents: number; message: string },
): Promise<ShopperOffer | null> {
  let result: ShopperOffer | null = null;
  let error = '';
  try {
    const params = { id: offer.id };
    result =
      answer === 'accept'
        ? await client.request(ROUTE_PATHS.offers.accept, { params })
        : answer === 'decline'
          ? await client.request(ROUTE_PATHS.offers.decline, { params })
          : await client.request(ROUTE_PATHS.offers.counter, { params, body: answer.message ? answer : { priceCents: answer.priceCents } });
  } catch (caught) {
    error = messageOf(caught, 'Your answer could not be sent. Please try again.');
  }
  await loadOffers(offer.leadId);
  if (error) $offers.set({ ...$offers.get(), error });
  return result;
}

/** Euros as people type them ("2.650.000,00", "2650000") to cents; null for anything else. */
export function parseEuroCents(text: string): number | null {
  const cleaned = text.replace(/[\s\u00a0€]/g, '');
  const match = /^(\d{1,3}(?:\.\d{3})+|\d+)(?:,(\d{1,2}))?$/.exec(cleaned);
  if (!match) return null;
  const total = Number(match[1]!.replaceAll('.', '')) * 100 + Number((match[2] ?? '0').padEnd(2, '0'));
  return Number.isSafeInteger(total) && total > 0 ? total : null;
}
