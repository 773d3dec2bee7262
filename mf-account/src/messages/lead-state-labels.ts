import type { LeadState } from '@boatshop/contract/constants';

/** The shopper's words for where a conversation stands. */
export const CONVERSATION_STATE_LABELS: Record<LeadState, string> = {
  new: 'Waiting for the shop',
  answered: 'Answered',
  viewing_booked: 'Viewing booked',
  offer_sent: 'Offer received',
  won: 'Ordered',
  lost: 'Closed',
};
