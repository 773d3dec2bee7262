import { Type, type Static } from '@sinclair/typebox';
import { ORDER_STATUSES } from './orders.table.js';

// Mirrors OrderSummary / Order in packages/state/src/contract.ts.

export const AddressSchema = Type.Object({
  line1: Type.String(),
  city: Type.String(),
  state: Type.String(),
  postal_code: Type.String(),
  country: Type.String(),
});

export const NamedAddressSchema = Type.Object({ name: Type.String(), address: AddressSchema });

export const OrderStatusSchema = Type.Unsafe<(typeof ORDER_STATUSES)[number]>({
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

export const OrderItemSchema = Type.Object({
  productId: Type.Union([Type.String(), Type.Null()], { description: 'null once the product is deleted' }),
  name: Type.String(),
  thumbnailUrl: Type.String(),
  unitPriceCents: Type.Integer(),
  quantity: Type.Integer(),
});
export type OrderItem = Static<typeof OrderItemSchema>;

export const OrderSchema = Type.Object(
  {
    ...OrderSummarySchema.properties,
    paidAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    items: Type.Array(OrderItemSchema),
    shipping: NamedAddressSchema,
    billing: NamedAddressSchema,
  },
  { title: 'Order' },
);
export type Order = Static<typeof OrderSchema>;
