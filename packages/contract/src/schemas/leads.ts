import { Type, type Static } from '@sinclair/typebox';
import { LEAD_MESSAGE_MAX_LENGTH, LEAD_STATES, SEARCH_MAX_LENGTH, type LeadState } from '../constants.js';
import { DateTime, Nullable, Text, withDefault } from './common.js';

// Sales: a shopper's enquiries and their conversations (/api/enquiries) and the shop's leads
// inbox (/api/admin/leads).

export const LeadStateSchema = Type.Unsafe<LeadState>({ type: 'string', enum: [...LEAD_STATES] });

const MessageText = () => Type.String({ minLength: 1, maxLength: LEAD_MESSAGE_MAX_LENGTH, pattern: '^[^\\u0000]*$' });

export const EnquiryBodySchema = Type.Object(
  {
    productId: Type.String({ maxLength: 100 }),
    message: MessageText(),
    /** a guest's name and e-mail; a signed-in shopper's come from the account */
    name: Type.Optional(Text(100)),
    email: Type.Optional(Text(254)),
    /** left empty by people; a bot that fills every field is answered as if accepted and nothing is kept */
    website: Type.Optional(Text(200)),
  },
  { additionalProperties: false },
);
export type EnquiryBody = Static<typeof EnquiryBodySchema>;

export const EnquiryReceiptSchema = Type.Object(
  {
    /** received: the shop has it; confirm-by-email: a guest must open the link first */
    outcome: Type.Union([Type.Literal('received'), Type.Literal('confirm-by-email')]),
    /** the conversation's id, for a signed-in shopper */
    id: Nullable(Type.String({ format: 'uuid' })),
  },
  { title: 'EnquiryReceipt' },
);
export type EnquiryReceipt = Static<typeof EnquiryReceiptSchema>;

export const EnquiryConfirmBodySchema = Type.Object(
  { token: Type.String({ minLength: 1, maxLength: 200 }) },
  { additionalProperties: false },
);

export const EnquiryConfirmationSchema = Type.Object({ productName: Type.String() }, { title: 'EnquiryConfirmation' });

export const LeadMessageSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    author: Type.Union([Type.Literal('shopper'), Type.Literal('shop')]),
    body: Type.String(),
    createdAt: DateTime(),
  },
  { title: 'LeadMessage' },
);
export type LeadMessage = Static<typeof LeadMessageSchema>;

export const EnquirySummarySchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    productId: Nullable(Type.String({ format: 'uuid' })),
    productName: Type.String(),
    state: LeadStateSchema,
    createdAt: DateTime(),
    lastActivityAt: DateTime(),
    /** true when the shop's latest message came after the shopper's */
    answered: Type.Boolean(),
  },
  { title: 'EnquirySummary' },
);
export type EnquirySummary = Static<typeof EnquirySummarySchema>;

export const EnquiryListSchema = Type.Object({ data: Type.Array(EnquirySummarySchema) }, { title: 'EnquiryList' });
export type EnquiryList = Static<typeof EnquiryListSchema>;

export const EnquirySchema = Type.Composite([EnquirySummarySchema, Type.Object({ messages: Type.Array(LeadMessageSchema) })], {
  title: 'Enquiry',
});
export type Enquiry = Static<typeof EnquirySchema>;

export const LeadMessageBodySchema = Type.Object({ body: MessageText() }, { additionalProperties: false });
export type LeadMessageBody = Static<typeof LeadMessageBodySchema>;

// ------------------------------------------------------------------------------------------
// Admin

export const AdminLeadQuerySchema = Type.Object(
  {
    state: Type.Optional(LeadStateSchema),
    /** true: only leads whose shopper waits for an answer */
    unanswered: Type.Optional(Type.Boolean()),
    q: Type.Optional(
      Type.String({ maxLength: SEARCH_MAX_LENGTH, pattern: '^[^\\u0000]*$', description: "part of the boat's or buyer's name or e-mail" }),
    ),
    page: withDefault(Type.Integer({ minimum: 1, maximum: 10_000 }), 1),
  },
  { additionalProperties: false },
);
export type AdminLeadQuery = Static<typeof AdminLeadQuerySchema>;

export const AdminLeadSummarySchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    productId: Nullable(Type.String({ format: 'uuid' })),
    productName: Type.String(),
    buyerName: Type.String(),
    email: Type.String(),
    hasAccount: Type.Boolean(),
    state: LeadStateSchema,
    createdAt: DateTime(),
    lastActivityAt: DateTime(),
    /** since when the buyer's latest message waits for an answer; null when answered */
    awaitingReplySince: Nullable(DateTime()),
  },
  { title: 'AdminLeadSummary' },
);
export type AdminLeadSummary = Static<typeof AdminLeadSummarySchema>;

export const AdminLeadPageSchema = Type.Object(
  {
    data: Type.Array(AdminLeadSummarySchema),
    total: Type.Integer(),
    page: Type.Integer(),
    pageSize: Type.Integer(),
  },
  { title: 'AdminLeadPage' },
);
export type AdminLeadPage = Static<typeof AdminLeadPageSchema>;

export const LeadNoteSchema = Type.Object(
  { id: Type.String({ format: 'uuid' }), body: Type.String(), authorName: Nullable(Type.String()), createdAt: DateTime() },
  { title: 'LeadNote' },
);
export type LeadNote = Static<typeof LeadNoteSchema>;

export const LeadEventSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    kind: Type.String(),
    detail: Nullable(Type.String()),
    actorName: Nullable(Type.String()),
    createdAt: DateTime(),
  },
  { title: 'LeadEvent' },
);
export type LeadEvent = Static<typeof LeadEventSchema>;

export const AdminLeadSchema = Type.Composite(
  [
    AdminLeadSummarySchema,
    Type.Object({
      lostReason: Nullable(Type.String()),
      messages: Type.Array(LeadMessageSchema),
      notes: Type.Array(LeadNoteSchema),
      timeline: Type.Array(LeadEventSchema),
    }),
  ],
  { title: 'AdminLead' },
);
export type AdminLead = Static<typeof AdminLeadSchema>;

export const LeadNoteBodySchema = Type.Object(
  { body: Type.String({ minLength: 1, maxLength: 2000, pattern: '^[^\\u0000]*$' }) },
  {
    additionalProperties: false,
  },
);
export const LeadLostBodySchema = Type.Object(
  { reason: Type.String({ minLength: 1, maxLength: 500, pattern: '^[^\\u0000]*$' }) },
  {
    additionalProperties: false,
  },
);

export const FunnelQuerySchema = Type.Object(
  { months: withDefault(Type.Integer({ minimum: 1, maximum: 36 }), 12) },
  { additionalProperties: false },
);

export const FunnelMonthSchema = Type.Object({
  /** YYYY-MM (UTC) */
  month: Type.String(),
  enquiries: Type.Integer(),
  viewings: Type.Integer(),
  offers: Type.Integer(),
  orders: Type.Integer(),
});
export type FunnelMonth = Static<typeof FunnelMonthSchema>;
export const FunnelSchema = Type.Object({ data: Type.Array(FunnelMonthSchema) }, { title: 'LeadFunnel' });
