import { Type, type Static } from '@sinclair/typebox';
import { AUDIT_PAGE_SIZE, EMAIL_MAX_LENGTH } from '../constants.js';
import { DATE_PATTERN, DateTime, Nullable, Text } from './common.js';

// The audit log as owners and accountants read it: /api/admin/audit, /api/admin/audit/export.

export const AuditQuerySchema = Type.Object({
  /** part of the actor's e-mail */
  actor: Type.Optional(Text(EMAIL_MAX_LENGTH)),
  /** part of the action, e.g. `refund` */
  action: Type.Optional(Text(100)),
  /** the day range, YYYY-MM-DD, both included (UTC) */
  from: Type.Optional(Type.String({ pattern: DATE_PATTERN })),
  to: Type.Optional(Type.String({ pattern: DATE_PATTERN })),
  /** keyset cursor: rows before this sequence number (the previous page's nextBefore) */
  before: Type.Optional(Type.Integer({ minimum: 1 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: AUDIT_PAGE_SIZE })),
});
export type AuditQuery = Static<typeof AuditQuerySchema>;

export const AuditExportQuerySchema = Type.Omit(AuditQuerySchema, ['before', 'limit']);
export type AuditExportQuery = Static<typeof AuditExportQuerySchema>;

export const AuditEntrySchema = Type.Object(
  {
    seq: Type.Integer(),
    at: DateTime(),
    actorId: Nullable(Type.String()),
    actorEmail: Nullable(Type.String()),
    actorRole: Nullable(Type.String()),
    ip: Nullable(Type.String()),
    action: Type.String(),
    targetType: Nullable(Type.String()),
    targetId: Nullable(Type.String()),
    status: Nullable(Type.Integer()),
    before: Type.Unknown(),
    after: Type.Unknown(),
    details: Type.Unknown(),
  },
  { title: 'AuditEntry' },
);
export type AuditEntry = Static<typeof AuditEntrySchema>;

export const AuditPageSchema = Type.Object({ entries: Type.Array(AuditEntrySchema), nextBefore: Nullable(Type.Integer()) });
export type AuditPage = Static<typeof AuditPageSchema>;

/** The CSV file (text/csv), one line per row, the same columns. */
export const AuditCsvSchema = Type.String({ description: 'text/csv' });
