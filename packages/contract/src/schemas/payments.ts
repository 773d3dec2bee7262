import { Type, type Static } from '@sinclair/typebox';
import {
  ADDRESS_FIELD_MAX_LENGTH,
  MAX_CART_LINES,
  MAX_LINE_QUANTITY,
  PAYMENT_MODES,
  PAYMENT_PROVIDERS,
  UUID_PATTERN,
} from '../constants.js';
import { OrderStatusSchema } from './orders.js';

// Checkout: /api/payments/….

/** Filled in: at least one character that is not white space. */
const Filled = (description: string) => Type.String({ minLength: 1, maxLength: ADDRESS_FIELD_MAX_LENGTH, pattern: '\\S', description });

export const AddressInputSchema = Type.Object(
  {
    line1: Filled('street'),
    city: Filled('city'),
    state: Filled('county or region'),
    postal_code: Filled('postal code'),
    country: Type.String({ pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2 code' }),
  },
  { additionalProperties: false },
);
export type AddressInput = Static<typeof AddressInputSchema>;

export const NamedAddressInputSchema = Type.Object(
  { name: Filled('recipient or card owner'), address: AddressInputSchema },
  { additionalProperties: false },
);
export type NamedAddressInput = Static<typeof NamedAddressInputSchema>;

export const PaymentConfigSchema = Type.Object(
  {
    provider: Type.Union(PAYMENT_PROVIDERS.map((provider) => Type.Literal(provider))),
    publishableKey: Type.String(),
    localApiBase: Type.Optional(Type.String({ description: 'the local stand-in, when provider is local' })),
  },
  { title: 'PaymentConfig' },
);
export type PaymentConfig = Static<typeof PaymentConfigSchema>;

export const CartLineSchema = Type.Object(
  {
    productId: Type.String({ pattern: UUID_PATTERN }),
    quantity: Type.Integer({ minimum: 1, maximum: MAX_LINE_QUANTITY }),
  },
  { additionalProperties: false },
);
export type CartLine = Static<typeof CartLineSchema>;

const CartItemsSchema = Type.Array(CartLineSchema, { minItems: 1, maxItems: MAX_CART_LINES });

export const PaymentModeSchema = Type.Union(
  PAYMENT_MODES.map((mode) => Type.Literal(mode)),
  { description: "'full': the card pays the total; 'deposit': the card pays the deposit, the balance follows by bank transfer" },
);

export const QuoteBodySchema = Type.Object(
  {
    items: CartItemsSchema,
    // books: with a buyer check, the total and the deposit are what that buyer pays (net when exempt).
    buyerCheckId: Type.Optional(Type.String({ pattern: UUID_PATTERN })),
    // books: without a check, what a consumer delivered to this country pays (net for a new boat to
    // another member state, or an export).
    shippingCountry: Type.Optional(Type.String({ pattern: '^[A-Z]{2}$' })),
    // offers: an accepted offer's id prices its boat at the agreed price (the one line, quantity 1)
    offerId: Type.Optional(Type.String({ maxLength: 100 })),
  },
  { additionalProperties: false },
);
export type QuoteBody = Static<typeof QuoteBodySchema>;

export const PaymentQuoteSchema = Type.Object(
  {
    totalCents: Type.Integer(),
    cardLimitCents: Type.Integer({ description: 'the most one card payment may carry' }),
    depositOffered: Type.Boolean(),
    depositRequired: Type.Boolean({ description: 'the total is above the card limit' }),
    depositCents: Type.Union([Type.Integer(), Type.Null()], { description: 'what the card pays now when reserving' }),
    balanceDueDays: Type.Integer(),
  },
  { title: 'PaymentQuote' },
);
export type PaymentQuote = Static<typeof PaymentQuoteSchema>;

export const CreatePaymentBodySchema = Type.Object(
  {
    items: CartItemsSchema,
    mode: Type.Optional(PaymentModeSchema),
    expectedTotalCents: Type.Integer({ minimum: 0, description: "the browser's idea of the total; the server's wins" }),
    shipping: NamedAddressInputSchema,
    billing: NamedAddressInputSchema,
    // books: the buyer check (POST /api/vat/buyer-checks) the order is placed under.
    buyerCheckId: Type.Optional(
      Type.String({ pattern: UUID_PATTERN, description: 'the check that decides the VAT; without one the buyer is a consumer' }),
    ),
    // offers: an accepted offer's id: the order is opened at the agreed price (the one line, quantity 1)
    offerId: Type.Optional(Type.String({ maxLength: 100 })),
  },
  { additionalProperties: false },
);
export type CreatePaymentBody = Static<typeof CreatePaymentBodySchema>;

export const CreatePaymentResponseSchema = Type.Object(
  {
    orderId: Type.String({ format: 'uuid' }),
    clientSecret: Type.String(),
    totalCents: Type.Integer({ description: 'integer euro cents, computed from the database' }),
    amountCents: Type.Integer({ description: 'what the card pays now: the total, or the deposit' }),
    mode: PaymentModeSchema,
  },
  { title: 'CreatePaymentResponse' },
);
export type CreatePaymentResponse = Static<typeof CreatePaymentResponseSchema>;

export const ConfirmPaymentBodySchema = Type.Object({ orderId: Type.String() }, { additionalProperties: false });
export type ConfirmPaymentBody = Static<typeof ConfirmPaymentBodySchema>;

export const ConfirmPaymentResponseSchema = Type.Object(
  {
    orderId: Type.String({ format: 'uuid' }),
    status: OrderStatusSchema,
  },
  { title: 'ConfirmPaymentResponse' },
);
export type ConfirmPaymentResponse = Static<typeof ConfirmPaymentResponseSchema>;

/** The provider's webhook: its body is raw bytes checked against stripe-signature. */
export const WebhookResponseSchema = Type.Object({ received: Type.Boolean() });
