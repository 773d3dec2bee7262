import { Type, type Static } from '@sinclair/typebox';
import { DATE_PATTERN, DateTime, Nullable, Text } from './common.js';

// Viewings: each marina's availability (set by the shop, /api/admin/viewing-locations) and the
// shoppers' viewings of a boat there (/api/viewings), in the marina's own time zone.

const HHMM = () => Type.String({ pattern: '^([01]\\d|2[0-3]):[0-5]\\d$' });
/** One day's opening hours: [from, to] pairs on the marina's wall clock. */
export const DayHoursSchema = Type.Array(Type.Tuple([HHMM(), HHMM()]), { maxItems: 6 });
const Weekday = () => Type.Optional(DayHoursSchema);
export const WeeklyHoursSchema = Type.Object(
  { '1': Weekday(), '2': Weekday(), '3': Weekday(), '4': Weekday(), '5': Weekday(), '6': Weekday(), '7': Weekday() },
  { additionalProperties: false, description: 'ISO weekday (1 Monday … 7 Sunday) to opening hours' },
);

/** viewing: the boat at its berth; sea_trial: the boat sailed, for the boats the admin allows it */
export const ViewingKindSchema = Type.Union([Type.Literal('viewing'), Type.Literal('sea_trial')]);
export type ViewingKind = Static<typeof ViewingKindSchema>;

export const ViewingSlotSchema = Type.Object({
  startsAt: DateTime(),
  endsAt: DateTime(),
  /** DD/MM/YYYY HH:mm on the marina's clock */
  label: Type.String(),
});
export type ViewingSlot = Static<typeof ViewingSlotSchema>;

export const ViewingPlaceSchema = Type.Object({
  marina: Type.String(),
  address: Type.String(),
  timeZone: Type.String(),
});

export const ViewingSlotsQuerySchema = Type.Object(
  { productId: Type.String({ maxLength: 100 }), kind: Type.Optional(ViewingKindSchema) },
  { additionalProperties: false },
);
export const ViewingSlotsSchema = Type.Object(
  {
    place: ViewingPlaceSchema,
    kind: ViewingKindSchema,
    /** how long one booking of this kind takes at the marina */
    minutes: Type.Integer(),
    /** whether this boat may also be booked for a sea trial */
    seaTrials: Type.Boolean(),
    slots: Type.Array(ViewingSlotSchema),
  },
  { title: 'ViewingSlots' },
);
export type ViewingSlots = Static<typeof ViewingSlotsSchema>;

export const BookViewingBodySchema = Type.Object(
  { productId: Type.String({ maxLength: 100 }), startsAt: Type.String({ format: 'date-time' }), kind: Type.Optional(ViewingKindSchema) },
  { additionalProperties: false },
);

/** A guest's booking: held briefly, booked once the e-mailed link is opened. */
export const GuestViewingBodySchema = Type.Object(
  {
    productId: Type.String({ maxLength: 100 }),
    startsAt: Type.String({ format: 'date-time' }),
    kind: Type.Optional(ViewingKindSchema),
    name: Text(100),
    email: Text(254),
    /** left empty by people; a bot that fills every field is answered as if accepted and nothing is kept */
    website: Type.Optional(Text(200)),
  },
  { additionalProperties: false },
);
export const GuestViewingReceiptSchema = Type.Object(
  {
    outcome: Type.Literal('confirm-by-email'),
    /** until when the time is held for the guest (the link still books it later if it is free) */
    heldUntil: DateTime(),
  },
  { title: 'GuestViewingReceipt' },
);
export type GuestViewingReceipt = Static<typeof GuestViewingReceiptSchema>;
export const ConfirmViewingBodySchema = Type.Object(
  { token: Type.String({ minLength: 1, maxLength: 200 }) },
  { additionalProperties: false },
);
export const RescheduleViewingBodySchema = Type.Object({ startsAt: Type.String({ format: 'date-time' }) }, { additionalProperties: false });

export const ViewingSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    productId: Nullable(Type.String({ format: 'uuid' })),
    productName: Type.String(),
    place: ViewingPlaceSchema,
    startsAt: DateTime(),
    endsAt: DateTime(),
    /** DD/MM/YYYY HH:mm on the marina's clock */
    label: Type.String(),
    kind: ViewingKindSchema,
    status: Type.Union([Type.Literal('booked'), Type.Literal('cancelled')]),
    leadId: Nullable(Type.String({ format: 'uuid' })),
  },
  { title: 'Viewing' },
);
export type Viewing = Static<typeof ViewingSchema>;
export const ViewingListSchema = Type.Object({ data: Type.Array(ViewingSchema) }, { title: 'ViewingList' });

// ------------------------------------------------------------------------------------------
// Admin: the marinas' calendars

export const ViewingExceptionSchema = Type.Object({
  day: Type.String({ pattern: DATE_PATTERN }),
  /** null: closed all day */
  hours: Nullable(DayHoursSchema),
  note: Type.String(),
});

export const ViewingLocationInputSchema = Type.Object(
  {
    marina: Text(200),
    address: Text(500),
    timeZone: Type.String({ maxLength: 64, description: 'IANA zone, e.g. Europe/Paris' }),
    slotMinutes: Type.Integer({ minimum: 15, maximum: 480 }),
    bufferMinutes: Type.Integer({ minimum: 0, maximum: 240 }),
    /** how long a sea trial takes here, for the boats that allow one; left out: 150 on create, unchanged on update */
    seaTrialMinutes: Type.Optional(Type.Integer({ minimum: 30, maximum: 480 })),
    weeklyHours: WeeklyHoursSchema,
  },
  { additionalProperties: false },
);
export type ViewingLocationInput = Static<typeof ViewingLocationInputSchema>;

export const ViewingLocationSchema = Type.Composite(
  [
    Type.Object({ id: Type.String({ format: 'uuid' }) }),
    ViewingLocationInputSchema,
    Type.Object({ exceptions: Type.Array(ViewingExceptionSchema) }),
  ],
  { title: 'ViewingLocation' },
);
export type ViewingLocation = Static<typeof ViewingLocationSchema>;
export const ViewingLocationListSchema = Type.Object({ data: Type.Array(ViewingLocationSchema) }, { title: 'ViewingLocationList' });

export const ViewingExceptionBodySchema = Type.Object(
  { hours: Nullable(DayHoursSchema), note: Type.Optional(Text(200)) },
  { additionalProperties: false },
);
export const ViewingExceptionParamsSchema = Type.Object({
  id: Type.String({ maxLength: 100 }),
  day: Type.String({ pattern: DATE_PATTERN }),
});

export const AdminViewingsQuerySchema = Type.Object({ day: Type.String({ pattern: DATE_PATTERN }) }, { additionalProperties: false });
export const AdminViewingSchema = Type.Composite([ViewingSchema, Type.Object({ buyerName: Type.String(), email: Type.String() })], {
  title: 'AdminViewing',
});
export const AdminViewingListSchema = Type.Object({ data: Type.Array(AdminViewingSchema) }, { title: 'AdminViewingList' });
