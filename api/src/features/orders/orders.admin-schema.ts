import { Type, type Static } from '@sinclair/typebox';
import { NamedAddressSchema, OrderItemSchema, OrderStatusSchema } from './orders.schema.js';

// The admin's view of orders (contract: /work/contracts/orders-api.md). Mirrors the Admin* types
// in packages/state/src/contract.ts.

const DateTime = Type.String({ format: 'date-time' });
const Nullable = <T extends ReturnType<typeof Type.String>>(schema: T) => Type.Union([schema, Type.Null()]);

export const ActorTypeSchema = Type.Union([
  Type.Literal('admin'),
  Type.Literal('shopper'),
  Type.Literal('provider'),
  Type.Literal('system'),
]);

export const AdminOrderSummarySchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    createdAt: DateTime,
    status: OrderStatusSchema,
    totalCents: Type.Integer(),
    refundedCents: Type.Integer(),
    itemCount: Type.Integer({ description: 'units over all lines' }),
    customer: Type.Object({ id: Type.String(), email: Type.String(), displayName: Type.String() }),
    balanceDueCents: Type.Integer({ description: 'what a reserved order still awaits by bank transfer; 0 otherwise' }),
    overdue: Type.Boolean({ description: 'reserved and past its balance due date' }),
  },
  { title: 'AdminOrderSummary' },
);
export type AdminOrderSummary = Static<typeof AdminOrderSummarySchema>;

export const PaymentLineSchema = Type.Object(
  {
    id: Type.String(),
    method: Type.Union([Type.Literal('card'), Type.Literal('bank_transfer')]),
    amountCents: Type.Integer(),
    providerReference: Nullable(Type.String()),
    status: Type.Union([Type.Literal('pending'), Type.Literal('succeeded'), Type.Literal('failed'), Type.Literal('canceled')]),
    createdAt: DateTime,
    confirmedAt: Nullable(DateTime),
    receivedOn: Nullable(Type.String({ format: 'date', description: 'bank transfers: the day the bank received it' })),
  },
  { title: 'PaymentLine' },
);
export type PaymentLine = Static<typeof PaymentLineSchema>;

const ActorSchema = Type.Object({ type: ActorTypeSchema, id: Nullable(Type.String()), name: Nullable(Type.String()) });

export const RefundSchema = Type.Object(
  {
    id: Type.String(),
    amountCents: Type.Integer(),
    reason: Nullable(Type.String()),
    status: Type.Union([Type.Literal('pending'), Type.Literal('succeeded'), Type.Literal('failed')]),
    providerReference: Nullable(Type.String()),
    createdAt: DateTime,
    createdBy: Type.Union([ActorSchema, Type.Null()]),
  },
  { title: 'Refund' },
);
export type Refund = Static<typeof RefundSchema>;

export const OrderEventSchema = Type.Object(
  {
    id: Type.String(),
    fromStatus: Type.Union([OrderStatusSchema, Type.Null()]),
    toStatus: OrderStatusSchema,
    at: DateTime,
    actor: ActorSchema,
    amountCents: Type.Union([Type.Integer(), Type.Null()]),
    note: Nullable(Type.String()),
  },
  { title: 'OrderEvent' },
);
export type OrderEvent = Static<typeof OrderEventSchema>;

export const ORDER_ACTIONS = ['ship', 'deliver', 'cancel', 'refund', 'record_transfer'] as const;
export type OrderAction = (typeof ORDER_ACTIONS)[number];

export const AdminOrderSchema = Type.Object(
  {
    ...AdminOrderSummarySchema.properties,
    paidAt: Nullable(DateTime),
    items: Type.Array(OrderItemSchema),
    shipping: NamedAddressSchema,
    billing: NamedAddressSchema,
    payments: Type.Array(PaymentLineSchema),
    refunds: Type.Array(RefundSchema),
    events: Type.Array(OrderEventSchema),
    refundableCents: Type.Integer(),
    allowedActions: Type.Array(Type.Union(ORDER_ACTIONS.map((action) => Type.Literal(action)))),
    carrier: Nullable(Type.String()),
    trackingNumber: Nullable(Type.String()),
    paymentReference: Nullable(Type.String({ description: "the RF reference of a deposit order's bank transfer" })),
    balanceDueOn: Nullable(Type.String({ format: 'date' })),
    depositCents: Type.Union([Type.Integer(), Type.Null()]),
  },
  { title: 'AdminOrder' },
);
export type AdminOrder = Static<typeof AdminOrderSchema>;

export const AdminOrderPageSchema = Type.Object(
  { data: Type.Array(AdminOrderSummarySchema), cursor: Type.Union([Type.String(), Type.Null()]), isLastPage: Type.Boolean() },
  { title: 'AdminOrderPage' },
);
export type AdminOrderPage = Static<typeof AdminOrderPageSchema>;

const DATE = '^\\d{4}-\\d{2}-\\d{2}$';

export const AdminOrderQuerySchema = Type.Object(
  {
    status: Type.Optional(OrderStatusSchema),
    overdue: Type.Optional(Type.Boolean({ description: 'true: only reserved orders past their balance due date' })),
    from: Type.Optional(Type.String({ pattern: DATE, description: 'YYYY-MM-DD, first day included (UTC)' })),
    to: Type.Optional(Type.String({ pattern: DATE, description: 'YYYY-MM-DD, last day included (UTC)' })),
    q: Type.Optional(
      Type.String({
        maxLength: 200,
        pattern: '^[^\\u0000]*$',
        description: 'order id (full or its first 8 characters) or part of the e-mail',
      }),
    ),
    cursor: Type.Optional(Type.String({ maxLength: 300, pattern: '^[A-Za-z0-9_-]*$' })),
    limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
  },
  { additionalProperties: false },
);
export type AdminOrderQuery = Static<typeof AdminOrderQuerySchema>;

/** Free text an admin types: PostgreSQL's text cannot hold NUL, so it is refused as bad input (400). */
export const Text = (maxLength: number) => Type.String({ maxLength, pattern: '^[^\\u0000]*$' });

export const ShipBodySchema = Type.Object(
  { carrier: Type.Optional(Text(100)), trackingNumber: Type.Optional(Text(100)) },
  { additionalProperties: false },
);
export const DeliverBodySchema = Type.Object({}, { additionalProperties: false });
export const CancelBodySchema = Type.Object(
  {
    reason: Type.Optional(Text(500)),
    deposit: Type.Optional(
      Type.Union([Type.Literal('refund'), Type.Literal('keep')], {
        description: 'a reserved order only (required there): refund the deposit to the card, or keep it',
      }),
    ),
  },
  { additionalProperties: false },
);

export const BankTransferBodySchema = Type.Object(
  {
    reference: Type.String({ minLength: 5, maxLength: 40, pattern: '^\\s*[Rr][Ff][0-9A-Za-z ]+$', description: 'RF… (spaces allowed)' }),
    amountCents: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }),
    receivedOn: Type.String({ pattern: DATE, description: 'YYYY-MM-DD' }),
    bankReference: Type.String({ minLength: 1, maxLength: 100, pattern: '^[^\\u0000]*\\S[^\\u0000]*$' }),
  },
  { additionalProperties: false },
);
export const RefundBodySchema = Type.Object(
  {
    amountCents: Type.Integer({ minimum: 1, maximum: 99_999_999 }),
    reason: Type.Optional(Text(500)),
    idempotencyKey: Type.String({ minLength: 8, maxLength: 100, pattern: '^[^\\u0000]*$' }),
  },
  { additionalProperties: false },
);

export const UnmatchedPaymentSchema = Type.Object(
  {
    id: Type.String(),
    providerReference: Type.String(),
    amountCents: Type.Integer(),
    currency: Type.String(),
    reason: Type.String(),
    receivedAt: DateTime,
    resolvedAt: Nullable(DateTime),
  },
  { title: 'UnmatchedPayment' },
);
export type UnmatchedPayment = Static<typeof UnmatchedPaymentSchema>;
