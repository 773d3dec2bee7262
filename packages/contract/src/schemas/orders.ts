import { Type, type Static } from '@sinclair/typebox';
import { ORDER_STATUSES, type OrderStatus } from '../constants.js';

// A shopper's own orders: /api/orders.

export const AddressSchema = Type.Object({
  line1: Type.String(),
  city: Type.String(),
  state: Type.String(),
  postal_code: Type.String(),
  country: Type.String(),
});
export type Address = Static<typeof AddressSchema>;

export const NamedAddressSchema = Type.Object({ name: Type.String(), address: AddressSchema });
export type NamedAddress = Static<typeof NamedAddressSchema>;

export const OrderStatusSchema = Type.Unsafe<OrderStatus>({
  type: 'string',
  enum: [...ORDER_STATUSES],
});

export const OrderSummarySchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    createdAt: Type.String({ format: 'date-time' }),
    totalCents: Type.Integer({ description: 'integer euro cents' }),
    status: OrderStatusSchema,
  },
  { title: 'OrderSummary' },
);
export type OrderSummary = Static<typeof OrderSummarySchema>;

export const OrderSummaryListSchema = Type.Object({ data: Type.Array(OrderSummarySchema) });
export type OrderSummaryList = Static<typeof OrderSummaryListSchema>;

export const OrderItemSchema = Type.Object({
  productId: Type.Union([Type.String(), Type.Null()], { description: 'null once the product is deleted' }),
  name: Type.String(),
  thumbnailUrl: Type.String(),
  unitPriceCents: Type.Integer(),
  quantity: Type.Integer(),
});
export type OrderItem = Static<typeof OrderItemSchema>;

/** One step of the order as the shopper sees it: no admin ids or names. */
export const OrderTimelineEntrySchema = Type.Object(
  {
    status: OrderStatusSchema,
    at: Type.String({ format: 'date-time' }),
    amountCents: Type.Union([Type.Integer(), Type.Null()]),
    note: Type.Union([Type.String(), Type.Null()]),
  },
  { title: 'OrderTimelineEntry' },
);
export type OrderTimelineEntry = Static<typeof OrderTimelineEntrySchema>;

/** What the shopper of a reserved order must still transfer, and where to. */
export const OrderBalanceSchema = Type.Object(
  {
    amountCents: Type.Integer(),
    dueOn: Type.String({ format: 'date', description: 'YYYY-MM-DD' }),
    reference: Type.String({ description: 'ISO 11649 creditor reference RF…, to quote on the transfer' }),
    accountHolder: Type.String(),
    iban: Type.String({ description: 'electronic format, no spaces' }),
    bic: Type.String(),
    overdue: Type.Boolean(),
  },
  { title: 'OrderBalance' },
);
export type OrderBalance = Static<typeof OrderBalanceSchema>;

export const OrderSchema = Type.Object(
  {
    ...OrderSummarySchema.properties,
    paidAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    items: Type.Array(OrderItemSchema),
    shipping: NamedAddressSchema,
    billing: NamedAddressSchema,
    refundedCents: Type.Integer({ description: 'refunded so far, integer euro cents' }),
    paidCents: Type.Integer({ description: 'confirmed payments so far (card and bank transfers), integer euro cents' }),
    depositCents: Type.Union([Type.Integer(), Type.Null()], { description: 'the deposit of an order reserved with one' }),
    balance: Type.Union([OrderBalanceSchema, Type.Null()], { description: 'what is left to transfer; null unless reserved' }),
    carrier: Type.Union([Type.String(), Type.Null()]),
    trackingNumber: Type.Union([Type.String(), Type.Null()]),
    timeline: Type.Array(OrderTimelineEntrySchema, { description: 'what happened to the order, oldest first' }),
  },
  { title: 'Order' },
);
export type Order = Static<typeof OrderSchema>;
