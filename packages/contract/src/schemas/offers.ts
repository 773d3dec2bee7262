import { Type, type Static } from '@sinclair/typebox';
import { OFFER_CONDITIONS_MAX_LENGTH, OFFER_MAX_PRICE_CENTS, OFFER_STATES, type OfferState } from '../constants.js';
import { DATE_PATTERN, DateTime, Nullable, Text } from './common.js';

// Offers: the shop's price for one boat to one buyer, made from a lead's page
// (/api/admin/leads/:id/offers), answered by the shopper in the account (/api/offers): accept,
// decline, or one counter-offer. An accepted offer is paid through the checkout at its price.

export const OfferStateSchema = Type.Unsafe<OfferState>({ type: 'string', enum: [...OFFER_STATES] });

const PriceCents = () => Type.Integer({ minimum: 100, maximum: OFFER_MAX_PRICE_CENTS, description: 'euro cents, VAT included' });

export const OfferSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    leadId: Type.String({ format: 'uuid' }),
    productId: Nullable(Type.String({ format: 'uuid' })),
    productName: Type.String(),
    /** what the shop offered */
    priceCents: Type.Integer(),
    /** the shopper's one counter-offer, once made */
    counterPriceCents: Nullable(Type.Integer()),
    counterMessage: Nullable(Type.String()),
    /** the price both sides agreed on: set once accepted (the offer's, or the counter-offer's) */
    agreedPriceCents: Nullable(Type.Integer()),
    /** the last day (YYYY-MM-DD) the offer can be accepted and paid */
    validUntil: Type.String({ pattern: DATE_PATTERN }),
    /** true once validUntil has passed: the offer can no longer be accepted or paid */
    expired: Type.Boolean(),
    conditions: Type.String(),
    state: OfferStateSchema,
    /** the order opened from the accepted offer, if any */
    orderId: Nullable(Type.String({ format: 'uuid' })),
    /** the boat is held for the buyer (accepted, not yet ordered, still valid) */
    boatHeld: Type.Boolean(),
    createdAt: DateTime(),
    respondedAt: Nullable(DateTime()),
  },
  { title: 'Offer' },
);
export type Offer = Static<typeof OfferSchema>;

export const OfferListSchema = Type.Object({ data: Type.Array(OfferSchema) }, { title: 'OfferList' });
export type OfferList = Static<typeof OfferListSchema>;

export const OfferListQuerySchema = Type.Object(
  { enquiryId: Type.String({ maxLength: 100, description: 'the conversation whose offers to list' }) },
  { additionalProperties: false },
);

export const SendOfferBodySchema = Type.Object(
  {
    priceCents: PriceCents(),
    validUntil: Type.String({ pattern: DATE_PATTERN, description: 'the last day it can be accepted, YYYY-MM-DD' }),
    conditions: Text(OFFER_CONDITIONS_MAX_LENGTH),
  },
  { additionalProperties: false },
);
export type SendOfferBody = Static<typeof SendOfferBodySchema>;

export const CounterOfferBodySchema = Type.Object(
  {
    priceCents: PriceCents(),
    message: Type.Optional(Text(OFFER_CONDITIONS_MAX_LENGTH)),
  },
  { additionalProperties: false },
);
export type CounterOfferBody = Static<typeof CounterOfferBodySchema>;

export const AdminOfferParamsSchema = Type.Object({ id: Type.String({ maxLength: 100 }), offerId: Type.String({ maxLength: 100 }) });
