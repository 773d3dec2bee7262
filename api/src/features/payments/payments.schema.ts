import { Type, type Static } from '@sinclair/typebox';
import { OrderStatusSchema } from '../orders/orders.schema.js';

// Mirrors PaymentConfig, CreatePaymentRequest and CreatePaymentResponse in packages/state/src/contract.ts.

const UUID_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';

/** Filled in: at least one character that is not white space. */
const Filled = (description: string) => Type.String({ minLength: 1, maxLength: 200, pattern: '\\S', description });

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

export const NamedAddressInputSchema = Type.Object(
  { name: Filled('recipient or card owner'), address: AddressInputSchema },
  { additionalProperties: false },
);
export type NamedAddressInput = Static<typeof NamedAddressInputSchema>;

export const PaymentConfigSchema = Type.Object(
  {
    provider: Type.Union([Type.Literal('stripe'), Type.Literal('local')]),
    publishableKey: Type.String(),
    localApiBase: Type.Optional(Type.String({ description: 'the local stand-in, when provider is local' })),
  },
  { title: 'PaymentConfig' },
);

/** Enough for any boat cart; bounds keep the single INSERT … SELECT small. */
export const MAX_CART_LINES = 100;
export const MAX_LINE_QUANTITY = 999;

const CartItemsSchema = Type.Array(
  Type.Object(
    {
      productId: Type.String({ pattern: UUID_PATTERN }),
      quantity: Type.Integer({ minimum: 1, maximum: MAX_LINE_QUANTITY }),
    },
    { additionalProperties: false },
  ),
  { minItems: 1, maxItems: MAX_CART_LINES },
);

export const PaymentModeSchema = Type.Union([Type.Literal('full'), Type.Literal('deposit')], {
  description: "'full': the card pays the total; 'deposit': the card pays the deposit, the balance follows by bank transfer",
});
export type PaymentMode = Static<typeof PaymentModeSchema>;

export const QuoteBodySchema = Type.Object({ items: CartItemsSchema }, { additionalProperties: false });
export type QuoteBody = Static<typeof QuoteBodySchema>;

export const QuoteResponseSchema = Type.Object(
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

export const CreatePaymentBodySchema = Type.Object(
  {
    items: CartItemsSchema,
    mode: Type.Optional(PaymentModeSchema),
    expectedTotalCents: Type.Integer({ minimum: 0, description: "the browser's idea of the total; the server's wins" }),
    shipping: NamedAddressInputSchema,
    billing: NamedAddressInputSchema,
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

export const ConfirmPaymentBodySchema = Type.Object({ orderId: Type.String() }, { additionalProperties: false });

export const ConfirmPaymentResponseSchema = Type.Object(
  {
    orderId: Type.String({ format: 'uuid' }),
    status: OrderStatusSchema,
  },
  { title: 'ConfirmPaymentResponse' },
);
