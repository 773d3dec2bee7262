// Card rules of Stripe's test mode: the documented test numbers and what a charge on each does
// (https://docs.stripe.com/testing), plus the checks Stripe runs on raw card details.

import type { CardErrorDetails } from './stripe-errors.js';

export type CardBrand = 'visa' | 'mastercard' | 'amex' | 'discover' | 'unknown';

export interface CardDetails {
  number: string;
  expMonth: number;
  expYear: number;
  cvc: string | undefined;
}

const DECLINED = 'Your card was declined.';

/** What charging each test number does; a number not listed is a declined live card. */
const TEST_CARD_OUTCOMES: Record<string, CardErrorDetails | 'succeeds'> = {
  '4242424242424242': 'succeeds',
  '4000056655665556': 'succeeds',
  '5555555555554444': 'succeeds',
  '2223003122003222': 'succeeds',
  '5200828282828210': 'succeeds',
  '378282246310005': 'succeeds',
  '6011111111111117': 'succeeds',
  // Charges succeed; a refund of them starts pending (see PENDING_REFUND_CARDS).
  '4000000000007726': 'succeeds',
  '4000000000000002': { code: 'card_declined', declineCode: 'generic_decline', message: DECLINED },
  '4000000000009995': {
    code: 'card_declined',
    declineCode: 'insufficient_funds',
    message: 'Your card has insufficient funds.',
  },
  '4000000000009987': { code: 'card_declined', declineCode: 'lost_card', message: DECLINED },
  '4000000000009979': { code: 'card_declined', declineCode: 'stolen_card', message: DECLINED },
  '4000000000000069': { code: 'expired_card', declineCode: 'expired_card', message: 'Your card has expired.', param: 'exp_month' },
  '4000000000000127': {
    code: 'incorrect_cvc',
    declineCode: 'incorrect_cvc',
    message: "Your card's security code is incorrect.",
    param: 'cvc',
  },
  '4000000000000119': {
    code: 'processing_error',
    declineCode: 'processing_error',
    message: 'An error occurred while processing your card. Try again in a little bit.',
  },
};

const LIVE_CARD_IN_TEST_MODE: CardErrorDetails = {
  code: 'card_declined',
  declineCode: 'test_mode_live_card',
  message:
    'Your card was declined. Your request was in test mode, but used a non test (live) card. For a list of valid test cards, visit: https://stripe.com/docs/testing.',
};

/**
 * Stripe's "refund pending" test card: the charge succeeds, a refund of it starts `pending` and
 * later becomes `succeeded` (or `failed`) with a `refund.updated` event. In the stand-in the
 * later change is made through its dashboard (POST /_dashboard/refunds/:id/settle).
 */
export const PENDING_REFUND_CARDS: ReadonlySet<string> = new Set(['4000000000007726']);

/** Stripe's shortcut payment method ids for the test cards (`pm_card_visa` and friends). */
export const TEST_PAYMENT_METHOD_CARDS: Record<string, string> = {
  pm_card_visa: '4242424242424242',
  pm_card_visa_debit: '4000056655665556',
  pm_card_mastercard: '5555555555554444',
  pm_card_amex: '378282246310005',
  pm_card_discover: '6011111111111117',
  pm_card_refundPending: '4000000000007726',
  pm_card_chargeDeclined: '4000000000000002',
  pm_card_chargeDeclinedInsufficientFunds: '4000000000009995',
  pm_card_chargeDeclinedLostCard: '4000000000009987',
  pm_card_chargeDeclinedStolenCard: '4000000000009979',
  pm_card_chargeDeclinedExpiredCard: '4000000000000069',
  pm_card_chargeDeclinedIncorrectCvc: '4000000000000127',
  pm_card_chargeDeclinedProcessingError: '4000000000000119',
};

export function cardBrand(number: string): CardBrand {
  if (/^4/.test(number)) return 'visa';
  if (/^(5[1-5]|2[2-7])/.test(number)) return 'mastercard';
  if (/^3[47]/.test(number)) return 'amex';
  if (/^(6011|65|64[4-9])/.test(number)) return 'discover';
  return 'unknown';
}

function passesLuhn(number: string): boolean {
  let sum = 0;
  for (let i = 0; i < number.length; i += 1) {
    let digit = Number(number[number.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/** The checks Stripe runs when raw card details arrive, before any charge is attempted. */
export function validateCard(card: CardDetails, now: Date): CardErrorDetails | null {
  if (!/^\d{12,19}$/.test(card.number) || !passesLuhn(card.number)) {
    return { code: 'incorrect_number', message: 'Your card number is incorrect.', param: 'number' };
  }
  if (!Number.isInteger(card.expMonth) || card.expMonth < 1 || card.expMonth > 12) {
    return { code: 'invalid_expiry_month', message: "Your card's expiration month is invalid.", param: 'exp_month' };
  }
  if (!Number.isInteger(card.expYear) || card.expYear < 1000) {
    return { code: 'invalid_expiry_year', message: "Your card's expiration year is invalid.", param: 'exp_year' };
  }
  const thisYear = now.getUTCFullYear();
  const thisMonth = now.getUTCMonth() + 1;
  if (card.expYear < thisYear || (card.expYear === thisYear && card.expMonth < thisMonth)) {
    return { code: 'expired_card', message: 'Your card has expired.', param: 'exp_year' };
  }
  const cvcLength = cardBrand(card.number) === 'amex' ? 4 : 3;
  if (card.cvc !== undefined && !new RegExp(`^\\d{${cvcLength}}$`).test(card.cvc)) {
    return { code: 'invalid_cvc', message: "Your card's security code is invalid.", param: 'cvc' };
  }
  return null;
}

/** The outcome of charging a card that passed validation. */
export function chargeOutcome(number: string): CardErrorDetails | null {
  const outcome = TEST_CARD_OUTCOMES[number] ?? LIVE_CARD_IN_TEST_MODE;
  return outcome === 'succeeds' ? null : outcome;
}
