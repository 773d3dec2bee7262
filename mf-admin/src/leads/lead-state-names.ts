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
};
