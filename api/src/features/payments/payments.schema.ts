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

export const CreatePaymentBodySchema = Type.Object(
  {
    items: Type.Array(
      Type.Object(
        {
          productId: Type.String({ pattern: UUID_PATTERN }),
          quantity: Type.Integer({ minimum: 1, maximum: MAX_LINE_QUANTITY }),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: MAX_CART_LINES },
    ),
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
