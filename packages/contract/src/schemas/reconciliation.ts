import { Type, type Static } from '@sinclair/typebox';
import { REASON_MAX_LENGTH } from '../constants.js';

// The ledger's reconciliation: differences between orders' ledgers and the provider's and the
// bank's records, listed as alerts an admin resolves with a reason.

export const ReconciliationAlertSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    orderId: Type.String({ format: 'uuid' }),
    kind: Type.String({ description: 'card_capture, card_refunds, bank_in or bank_out' }),
    ledgerCents: Type.Integer({ description: 'what the ledger holds' }),
    sourceCents: Type.Integer({ description: 'what the provider or the bank lines say' }),
    detail: Type.String(),
    createdAt: Type.String({ format: 'date-time' }),
    resolvedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    resolution: Type.Union([Type.String(), Type.Null()]),
  },
  { title: 'ReconciliationAlert' },
);
export type ReconciliationAlert = Static<typeof ReconciliationAlertSchema>;

export const ReconciliationAlertListSchema = Type.Object(
  { data: Type.Array(ReconciliationAlertSchema) },
  { title: 'ReconciliationAlertList' },
);
export type ReconciliationAlertList = Static<typeof ReconciliationAlertListSchema>;

export const ReconciliationAlertQuerySchema = Type.Object(
  { open: Type.Optional(Type.Boolean({ description: 'only the alerts not resolved yet (default true)' })) },
  { additionalProperties: false },
);

export const ReconciliationRunSchema = Type.Object(
  { checked: Type.Integer(), raised: Type.Integer(), open: Type.Integer() },
  { title: 'ReconciliationRun' },
);
export type ReconciliationRun = Static<typeof ReconciliationRunSchema>;

export const ResolveAlertBodySchema = Type.Object(
  {
    reason: Type.String({ minLength: 1, maxLength: REASON_MAX_LENGTH, pattern: '\\S', description: 'why the difference is settled' }),
  },
  { additionalProperties: false },
);
export type ResolveAlertBody = Static<typeof ResolveAlertBodySchema>;
