import type { LeadState } from '@boatshop/contract/constants';

/** The staff's words for where a lead stands. */
export const LEAD_STATE_NAMES: Record<LeadState, string> = {
  new: 'New',
  answered: 'Answered',
  viewing_booked: 'Viewing booked',
  offer_sent: 'Offer sent',
  won: 'Won',
  lost: 'Lost',
};

/** The timeline's words for each event of a lead. */
export const LEAD_EVENT_NAMES: Record<string, string> = {
  enquiry: 'Enquiry received',
  replied: 'Answered',
  viewing_booked: 'Viewing booked',
  offer_sent: 'Offer sent',
  won: 'Order placed',
  lost: 'Marked lost',
  // offers
  offer_accepted: 'Offer accepted by the buyer',
  offer_declined: 'Offer declined by the buyer',
  offer_countered: 'Counter-offer received',
  counter_accepted: 'Counter-offer accepted',
  counter_declined: 'Counter-offer declined',
  viewing_rescheduled: 'Viewing moved',
  viewing_cancelled: 'Viewing cancelled',
};
