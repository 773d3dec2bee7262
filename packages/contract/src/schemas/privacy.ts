import { Type, type Static } from '@sinclair/typebox';
import { CONSENT_TOPICS, type ConsentTopic } from '../constants.js';
import { DateTime, Nullable } from './common.js';

// People: a shopper's own data (/api/account/privacy): the export, erasure and consents.

const ConsentTopicSchema = Type.Unsafe<ConsentTopic>({ type: 'string', enum: [...CONSENT_TOPICS] });

export const ConsentSchema = Type.Object({ topic: ConsentTopicSchema, granted: Type.Boolean(), recordedAt: Nullable(DateTime()) });
export type Consent = Static<typeof ConsentSchema>;

export const ConsentBodySchema = Type.Object({ topic: ConsentTopicSchema, granted: Type.Boolean() }, { additionalProperties: false });
export type ConsentBody = Static<typeof ConsentBodySchema>;

export const DataExportSchema = Type.Object({
  id: Type.String({ format: 'uuid' }),
  /** preparing: the job builds it; ready: the e-mailed link downloads it until expiresAt */
  state: Type.Union([Type.Literal('preparing'), Type.Literal('ready')]),
  createdAt: DateTime(),
  expiresAt: DateTime(),
});
export type DataExport = Static<typeof DataExportSchema>;

export const PrivacyStatusSchema = Type.Object(
  {
    consents: Type.Array(ConsentSchema),
    /** the latest export still downloadable, if any */
    export: Nullable(DataExportSchema),
    /** why the account cannot be erased now; empty: it can */
    erasureBlockers: Type.Array(Type.String()),
    /** an erasure link was e-mailed and not used yet */
    erasureRequested: Type.Boolean(),
  },
  { title: 'PrivacyStatus' },
);
export type PrivacyStatus = Static<typeof PrivacyStatusSchema>;

export const ErasureRequestedSchema = Type.Object({ outcome: Type.Literal('confirm-by-email') });
export type ErasureRequested = Static<typeof ErasureRequestedSchema>;

export const PrivacyTokenBodySchema = Type.Object(
  { token: Type.String({ minLength: 1, maxLength: 200 }) },
  { additionalProperties: false },
);
export type PrivacyTokenBody = Static<typeof PrivacyTokenBodySchema>;

export const DataExportQuerySchema = Type.Object({ token: Type.String({ minLength: 1, maxLength: 200 }) }, { additionalProperties: false });

/** The archive itself: JSON of every record the shop holds about the shopper. */
export const DataArchiveSchema = Type.Object({ format: Type.String() }, { additionalProperties: true, title: 'DataArchive' });
