import { atom } from 'nanostores';
import { ROUTE_PATHS, isApiError, type ResponseOf } from '@boatshop/contract/client';
import { client } from '../api';
import { $lead } from './admin-leads';

export type LeadOffer = ResponseOf<typeof ROUTE_PATHS.admin.offers.list>['data'][number];

const messageOf = (error: unknown, fallback: string) =>
  isApiError(error) && error.status > 0 && error.status < 500 ? (error.details[0] ?? error.message) : fallback;

/**
 * Euros as staff type them, to cents: "2.750.000,00", "2750000", "2.750.000 €", "2750000,5".
 * Dots group thousands, a comma starts the cents (at most two digits). Null for anything else.
 */
export function parseEuroCents(text: string): number | null {
  const cleaned = text.replace(/[\s\u00a0€]/g, '');
  const match = /^(\d{1,3}(?:\.\d{3})+|\d+)(?:,(\d{1,2}))?$/.exec(cleaned);
  if (!match) return null;
  const euros = Number(match[1]!.replaceAll('.', ''));
  const cents = Number((match[2] ?? '0').padEnd(2, '0'));
  const total = euros * 100 + cents;
  return Number.isSafeInteger(total) ? total : null;
}

/** DD/MM/YYYY (as the pages write days) to YYYY-MM-DD; null when it is not a real day. */
export function parseDay(text: string): string | null {
  const match = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(text.trim());
  if (!match) return null;
  const iso = `${match[3]}-${match[2]!.padStart(2, '0')}-${match[1]!.padStart(2, '0')}`;
  const date = new Date(`${iso}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === iso ? iso : null;
}

/** The lead's offers, newest first, and what went wrong last. */
export const $leadOffers = atom<{ leadId: string; offers: LeadOffer[]; error: string }>({ leadId: '', offers: [], error: '' });

export async function loadLeadOffers(leadId: string): Promise<void> {
  try {
    const { data } = await client.request(ROUTE_PATHS.admin.offers.list, { params: { id: leadId } });
    $leadOffers.set({ leadId, offers: data, error: '' });
  } catch (error) {
    $leadOffers.set({ leadId, offers: [], error: messageOf(error, 'The offers could not be loaded.') });
  }
}

/** The lead's state and timeline after an offer changed, without the page's loading state. */
async function refreshLead(leadId: string): Promise<void> {
  try {
    $lead.set({ status: 'ready', lead: await client.request(ROUTE_PATHS.admin.leads.get, { params: { id: leadId } }), error: '' });
  } catch {
    // The page keeps what it showed; the offers themselves are current.
  }
}

async function act(leadId: string, run: () => Promise<unknown>, fallback: string): Promise<boolean> {
  try {
    await run();
    await Promise.all([loadLeadOffers(leadId), refreshLead(leadId)]);
    return true;
  } catch (error) {
    $leadOffers.set({ ...$leadOffers.get(), error: messageOf(error, fallback) });
    return false;
  }
}

export function sendOffer(leadId: string, offer: { priceCents: number; validUntil: string; conditions: string }): Promise<boolean> {
  return act(
    leadId,
    () => client.request(ROUTE_PATHS.admin.offers.send, { params: { id: leadId }, body: offer }),
    'The offer could not be sent.',
  );
}

export function answerCounter(leadId: string, offerId: string, accept: boolean): Promise<boolean> {
  const route = accept ? ROUTE_PATHS.admin.offers.acceptCounter : ROUTE_PATHS.admin.offers.declineCounter;
  return act(leadId, () => client.request(route, { params: { id: leadId, offerId } }), 'The counter-offer could not be answered.');
}

export function offerProblem(message: string): void {
  $leadOffers.set({ ...$leadOffers.get(), error: message });
}
