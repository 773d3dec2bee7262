import { Type, type Static } from '@sinclair/typebox';
import { BANK_REFERENCE_MAX_LENGTH, REASON_MAX_LENGTH } from '../constants.js';
import { DATE_PATTERN, DateTime, Nullable } from './common.js';

// An order's money ledger, for the admin: /api/admin/orders/:id/ledger and /bank-refund.

export const LEDGER_KINDS = [
  'card_capture',
  'bank_transfer_in',
  'card_refund',
  'bank_refund_out',
  'dispute_opened',
  'dispute_won',
  'dispute_lost',
  'write_off',
] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];

/** What the order's ledger adds up to (see docs/ledger.md), in euro cents. */
export const OrderMoneySchema = Type.Object(
  {
    totalCents: Type.Integer(),
    depositCents: Nullable(Type.Integer()),
    receivedCents: Type.Integer(),
    cardReceivedCents: Type.Integer(),
    bankReceivedCents: Type.Integer(),
    refundedCents: Type.Integer(),
    cardRefundedCents: Type.Integer(),
    bankRefundedCents: Type.Integer(),
    atRiskCents: Type.Integer(),
    lostCents: Type.Integer(),
    writtenOffCents: Type.Integer(),
    collectedCents: Type.Integer(),
    heldCents: Type.Integer(),
    owedCents: Type.Integer(),
    refundsInFlightCents: Type.Integer(),
    cancelInFlight: Type.Boolean(),
  },
  { additionalProperties: false },
);
export type OrderMoney = Static<typeof OrderMoneySchema>;

export const LedgerEntrySchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    kind: Type.Union(LEDGER_KINDS.map((kind) => Type.Literal(kind))),
    /** signed: what the line does to the money the shop holds */
    amountCents: Type.Integer(),
    source: Type.Union([Type.Literal('card'), Type.Literal('bank'), Type.Literal('admin')]),
    reference: Type.String(),
    /** YYYY-MM-DD */
    bookedOn: Type.String(),
    at: DateTime(),
    actorType: Type.String(),
    note: Nullable(Type.String()),
    /** what the shop held for the order after this line */
    balanceCents: Type.Integer(),
  },
  { additionalProperties: false },
);
export type LedgerEntry = Static<typeof LedgerEntrySchema>;

export const OrderLedgerSchema = Type.Object(
  { orderId: Type.String({ format: 'uuid' }), money: OrderMoneySchema, entries: Type.Array(LedgerEntrySchema) },
  { additionalProperties: false },
);
export type OrderLedger = Static<typeof OrderLedgerSchema>;

/** Money sent back to the buyer by the shop's bank, recorded by an admin. */
export const BankRefundBodySchema = Type.Object(
  {
    amountCents: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }),
    /** the day the bank sent it, YYYY-MM-DD */
    refundedOn: Type.String({ pattern: DATE_PATTERN, description: 'YYYY-MM-DD' }),
    /** the bank's reference of the outgoing transfer */
    bankReference: Type.String({ minLength: 1, maxLength: BANK_REFERENCE_MAX_LENGTH, pattern: '^[^\\u0000]*\\S[^\\u0000]*$' }),
    reason: Type.Optional(Type.String({ maxLength: REASON_MAX_LENGTH })),
  },
  { additionalProperties: false },
);
export type BankRefundBody = Static<typeof BankRefundBodySchema>;
