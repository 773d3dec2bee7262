import { Type, type Static } from '@sinclair/typebox';
import {
  ACTOR_TYPES,
  ADMIN_ORDERS_MAX_PAGE_SIZE,
  ADMIN_ORDERS_PAGE_SIZE,
  BANK_REFERENCE_MAX_LENGTH,
  CURSOR_MAX_LENGTH,
  DEPOSIT_CHOICES,
  IDEMPOTENCY_KEY_MAX_LENGTH,
  IDEMPOTENCY_KEY_MIN_LENGTH,
  MAX_PAYMENT_CENTS,
  NOTE_MAX_LENGTH,
  ORDER_ACTIONS,
  PAYMENT_METHODS,
  PAYMENT_STATUSES,
  REASON_MAX_LENGTH,
  REFUND_STATUSES,
  SEARCH_MAX_LENGTH,
  SHIPPING_TEXT_MAX_LENGTH,
} from '../constants.js';
import { DATE_PATTERN, DateTime, Nullable, Text, withDefault } from './common.js';
import { NamedAddressSchema, OrderItemSchema, OrderStatusSchema } from './orders.js';

// The admin's view of orders: /api/admin/orders, /api/admin/bank-transfers, /api/admin/unmatched-payments.

export const ActorTypeSchema = Type.Union(ACTOR_TYPES.map((type) => Type.Literal(type)));

export const AdminOrderSummarySchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    createdAt: DateTime(),
    status: OrderStatusSchema,
    totalCents: Type.Integer(),
    refundedCents: Type.Integer(),
    itemCount: Type.Integer({ description: 'units over all lines' }),
    customer: Type.Object({ id: Type.String(), email: Type.String(), displayName: Type.String() }),
    balanceDueCents: Type.Integer({ description: 'what a reserved order still awaits by bank transfer; 0 otherwise' }),
    overdue: Type.Boolean({ description: 'reserved and past its balance due date' }),
    // ledger: where the order's one-off boats are
    stockStatus: Type.Optional(
      Nullable(
        Type.Union(
          ['reserved', 'released', 'sold', 'short', 'restocked'].map((status) => Type.Literal(status)),
          {
            description:
              'reserved: held for the order; released: given back; sold; short: paid but the boat went to another order (refund it); restocked; null: nothing stocked',
          },
        ),
      ),
    ),
  },
  { title: 'AdminOrderSummary' },
);
export type AdminOrderSummary = Static<typeof AdminOrderSummarySchema>;

export const PaymentLineSchema = Type.Object(
  {
    id: Type.String(),
    method: Type.Union(PAYMENT_METHODS.map((method) => Type.Literal(method))),
    amountCents: Type.Integer(),
    providerReference: Nullable(Type.String()),
    status: Type.Union(PAYMENT_STATUSES.map((status) => Type.Literal(status))),
    createdAt: DateTime(),
    confirmedAt: Nullable(DateTime()),
    receivedOn: Nullable(Type.String({ format: 'date', description: 'bank transfers: the day the bank received it' })),
  },
  { title: 'PaymentLine' },
);
export type PaymentLine = Static<typeof PaymentLineSchema>;

export const ActorSchema = Type.Object({ type: ActorTypeSchema, id: Nullable(Type.String()), name: Nullable(Type.String()) });
export type Actor = Static<typeof ActorSchema>;

export const RefundSchema = Type.Object(
  {
    id: Type.String(),
    amountCents: Type.Integer(),
    reason: Nullable(Type.String()),
    status: Type.Union(REFUND_STATUSES.map((status) => Type.Literal(status))),
    providerReference: Nullable(Type.String()),
    createdAt: DateTime(),
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
    at: DateTime(),
    actor: ActorSchema,
    amountCents: Type.Union([Type.Integer(), Type.Null()]),
    note: Nullable(Type.String()),
  },
  { title: 'OrderEvent' },
);
export type OrderEvent = Static<typeof OrderEventSchema>;

export const AdminOrderSchema = Type.Object(
  {
    ...AdminOrderSummarySchema.properties,
    paidAt: Nullable(DateTime()),
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

export const AdminOrderQuerySchema = Type.Object(
  {
    status: Type.Optional(OrderStatusSchema),
    overdue: Type.Optional(Type.Boolean({ description: 'true: only reserved orders past their balance due date' })),
    from: Type.Optional(Type.String({ pattern: DATE_PATTERN, description: 'YYYY-MM-DD, first day included (UTC)' })),
    to: Type.Optional(Type.String({ pattern: DATE_PATTERN, description: 'YYYY-MM-DD, last day included (UTC)' })),
    q: Type.Optional(
      Type.String({
        maxLength: SEARCH_MAX_LENGTH,
        pattern: '^[^\\u0000]*$',
        description: 'order id (full or its first 8 characters) or part of the e-mail',
      }),
    ),
    cursor: Type.Optional(Type.String({ maxLength: CURSOR_MAX_LENGTH, pattern: '^[A-Za-z0-9_-]*$' })),
    limit: withDefault(Type.Integer({ minimum: 1, maximum: ADMIN_ORDERS_MAX_PAGE_SIZE }), ADMIN_ORDERS_PAGE_SIZE),
  },
  { additionalProperties: false },
);
export type AdminOrderQuery = Static<typeof AdminOrderQuerySchema>;

export const ShipBodySchema = Type.Object(
  { carrier: Type.Optional(Text(SHIPPING_TEXT_MAX_LENGTH)), trackingNumber: Type.Optional(Text(SHIPPING_TEXT_MAX_LENGTH)) },
  { additionalProperties: false },
);
export type ShipBody = Static<typeof ShipBodySchema>;

export const DeliverBodySchema = Type.Object({}, { additionalProperties: false });
export type DeliverBody = Static<typeof DeliverBodySchema>;

export const DepositChoiceSchema = Type.Union(
  DEPOSIT_CHOICES.map((choice) => Type.Literal(choice)),
  { description: 'a reserved order only (required there): refund the deposit to the card, or keep it' },
);

export const CancelBodySchema = Type.Object(
  { reason: Type.Optional(Text(REASON_MAX_LENGTH)), deposit: Type.Optional(DepositChoiceSchema) },
  { additionalProperties: false },
);
export type CancelBody = Static<typeof CancelBodySchema>;

export const RefundBodySchema = Type.Object(
  {
    amountCents: Type.Integer({ minimum: 1, maximum: MAX_PAYMENT_CENTS }),
    reason: Type.Optional(Text(REASON_MAX_LENGTH)),
    idempotencyKey: Type.String({ minLength: IDEMPOTENCY_KEY_MIN_LENGTH, maxLength: IDEMPOTENCY_KEY_MAX_LENGTH, pattern: '^[^\\u0000]*$' }),
  },
  { additionalProperties: false },
);
export type RefundBody = Static<typeof RefundBodySchema>;

export const BankTransferBodySchema = Type.Object(
  {
    reference: Type.String({ minLength: 5, maxLength: 40, pattern: '^\\s*[Rr][Ff][0-9A-Za-z ]+$', description: 'RF… (spaces allowed)' }),
    amountCents: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }),
    receivedOn: Type.String({ pattern: DATE_PATTERN, description: 'YYYY-MM-DD' }),
    bankReference: Type.String({ minLength: 1, maxLength: BANK_REFERENCE_MAX_LENGTH, pattern: '^[^\\u0000]*\\S[^\\u0000]*$' }),
  },
  { additionalProperties: false },
);
export type BankTransferBody = Static<typeof BankTransferBodySchema>;

export const UnmatchedPaymentSchema = Type.Object(
  {
    id: Type.String(),
    providerReference: Type.String(),
    amountCents: Type.Integer(),
    currency: Type.String(),
    reason: Type.String(),
    receivedAt: DateTime(),
    resolvedAt: Nullable(DateTime()),
  },
  { title: 'UnmatchedPayment' },
);
export type UnmatchedPayment = Static<typeof UnmatchedPaymentSchema>;

export const UnmatchedPaymentListSchema = Type.Object({ data: Type.Array(UnmatchedPaymentSchema) });
export type UnmatchedPaymentList = Static<typeof UnmatchedPaymentListSchema>;

export const ResolveUnmatchedPaymentBodySchema = Type.Object(
  { note: Type.Optional(Text(NOTE_MAX_LENGTH)) },
  { additionalProperties: false },
);
export type ResolveUnmatchedPaymentBody = Static<typeof ResolveUnmatchedPaymentBodySchema>;
