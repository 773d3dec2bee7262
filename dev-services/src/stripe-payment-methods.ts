// The payment methods of the Stripe stand-in's account: Stripe's test payment methods, cards
// sent as parameters (validated as Stripe validates them) and their fingerprints. Full card
// numbers stay here, apart from the objects, so no response can leak one.

import { createHmac, randomBytes } from 'node:crypto';
import { cardBrand, TEST_PAYMENT_METHOD_CARDS, validateCard, type CardDetails } from './stripe-cards.js';
import { invalidRequest, missingParam, notFound, type CardErrorDetails } from './stripe-errors.js';
import type { FormObject } from './stripe-form.js';
import { nowSeconds, randomId, type PaymentMethod } from './stripe-objects.js';
import { readAddress, readMetadata, readObject, readString, rejectUnknown } from './stripe-params.js';

export class PaymentMethods {
  private readonly methods = new Map<string, PaymentMethod>();
  private readonly cardNumbers = new Map<string, string>();
  private readonly fingerprintKey = randomBytes(16);

  get(id: string): PaymentMethod | undefined {
    return this.methods.get(id);
  }

  /** The full card number behind a payment method, which decides how a test payment ends. */
  cardNumber(id: string): string | undefined {
    return this.cardNumbers.get(id);
  }

  /** A payment method by id, or one of Stripe's test payment methods (`pm_card_visa`, …) made on first use. */
  resolve(id: string, param: string): PaymentMethod {
    const testCard = TEST_PAYMENT_METHOD_CARDS[id];
    if (testCard !== undefined) {
      const nextYear = new Date().getUTCFullYear() + 1;
      return this.store({ number: testCard, expMonth: 12, expYear: nextYear, cvc: undefined }, emptyBillingDetails());
    }
    const existing = this.methods.get(id);
    if (!existing) throw notFound('PaymentMethod', id, param);
    return existing;
  }

  /** A card payment method from `card[…]` and `billing_details[…]` parameters (under `prefix` when nested). */
  build(params: FormObject, prefix: string): PaymentMethod {
    const path = (key: string): string => (prefix ? `${prefix}[${key}]` : key);
    rejectUnknown(params, ['type', 'card', 'billing_details', 'metadata'], prefix);
    const type = readString(params, 'type', path('type'));
    if (!type) throw missingParam(path('type'));
    if (type !== 'card') {
      throw invalidRequest(`Invalid ${path('type')}: the Stripe stand-in only supports card.`, { param: path('type') });
    }
    const card = readObject(params, 'card', path('card'));
    if (!card) throw missingParam(path('card'));
    rejectUnknown(card, ['number', 'exp_month', 'exp_year', 'cvc'], path('card'));
    const cardPath = (key: string): string => `${path('card')}[${key}]`;
    const number = readString(card, 'number', cardPath('number'));
    if (number === undefined) throw missingParam(cardPath('number'));
    const expMonth = readString(card, 'exp_month', cardPath('exp_month'));
    if (expMonth === undefined) throw missingParam(cardPath('exp_month'));
    const expYear = readString(card, 'exp_year', cardPath('exp_year'));
    if (expYear === undefined) throw missingParam(cardPath('exp_year'));

    const billing = readObject(params, 'billing_details', path('billing_details')) ?? {};
    const billingPath = path('billing_details');
    rejectUnknown(billing, ['address', 'email', 'name', 'phone'], billingPath);
    const billingDetails: PaymentMethod['billing_details'] = {
      address: readAddress(billing, 'address', `${billingPath}[address]`) ?? emptyBillingDetails().address,
      email: readString(billing, 'email', `${billingPath}[email]`) || null,
      name: readString(billing, 'name', `${billingPath}[name]`) || null,
      phone: readString(billing, 'phone', `${billingPath}[phone]`) || null,
      tax_id: null,
    };

    const year = /^\d{2}$/.test(expYear) ? 2000 + Number(expYear) : Number(expYear);
    const details: CardDetails = {
      // Stripe accepts numbers typed with spaces or dashes between the groups.
      number: number.replace(/[\s-]/g, ''),
      expMonth: /^\d{1,2}$/.test(expMonth) ? Number(expMonth) : Number.NaN,
      expYear: /^\d{2}$|^\d{4}$/.test(expYear) ? year : Number.NaN,
      cvc: readString(card, 'cvc', cardPath('cvc')),
    };
    const invalid = validateCard(details, new Date());
    if (invalid) throw new CardValidationError(invalid);
    return this.store(details, billingDetails, readMetadata(params));
  }

  private store(card: CardDetails, billingDetails: PaymentMethod['billing_details'], metadata: Record<string, string> = {}): PaymentMethod {
    const brand = cardBrand(card.number);
    const paymentMethod: PaymentMethod = {
      id: randomId('pm'),
      object: 'payment_method',
      allow_redisplay: 'unspecified',
      billing_details: billingDetails,
      card: {
        brand,
        checks: { address_line1_check: null, address_postal_code_check: null, cvc_check: card.cvc === undefined ? null : 'unchecked' },
        country: 'US',
        display_brand: brand,
        exp_month: card.expMonth,
        exp_year: card.expYear,
        fingerprint: createHmac('sha256', this.fingerprintKey).update(card.number).digest('base64url').slice(0, 16),
        funding: 'credit',
        generated_from: null,
        last4: card.number.slice(-4),
        networks: { available: [brand], preferred: null },
        three_d_secure_usage: { supported: true },
        wallet: null,
      },
      created: nowSeconds(),
      customer: null,
      livemode: false,
      metadata,
      type: 'card',
    };
    this.methods.set(paymentMethod.id, paymentMethod);
    this.cardNumbers.set(paymentMethod.id, card.number);
    return paymentMethod;
  }
}

/** A card Stripe refuses when it is sent: a confirmation fails with it (402) instead of a 400. */
export class CardValidationError extends Error {
  constructor(readonly details: CardErrorDetails) {
    super(details.message);
  }
}

function emptyBillingDetails(): PaymentMethod['billing_details'] {
  return {
    address: { city: null, country: null, line1: null, line2: null, postal_code: null, state: null },
    email: null,
    name: null,
    phone: null,
    tax_id: null,
  };
}
