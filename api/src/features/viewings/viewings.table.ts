import type { ColumnType, Generated, JSONColumnType } from 'kysely';

/** Opening hours of one day: [from, to] wall-clock pairs, "HH:MM". */
export type DayHours = [string, string][];
/** ISO weekday ("1" Monday … "7" Sunday) to its opening hours. */
export type WeeklyHours = Partial<Record<'1' | '2' | '3' | '4' | '5' | '6' | '7', DayHours>>;

export interface ViewingLocationsTable {
  id: Generated<string>;
  marina: string;
  address: string;
  time_zone: string;
  slot_minutes: number;
  buffer_minutes: ColumnType<number, number | undefined, number>;
  weekly_hours: JSONColumnType<WeeklyHours>;
  /** how long a sea trial takes at this marina */
  sea_trial_minutes: ColumnType<number, number | undefined, number>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

export interface ViewingExceptionsTable {
  id: Generated<string>;
  location_id: string;
  /** date column: select it as text */
  day: ColumnType<unknown, string, string>;
  /** null: closed all day */
  hours: JSONColumnType<DayHours | null, string | null, string | null>;
  note: ColumnType<string, string | undefined, string>;
}

export type ViewingKind = 'viewing' | 'sea_trial';
/** pending: a guest's booking held until its link is opened; lapsed: its hold ran out first */
export type ViewingStatus = 'pending' | 'booked' | 'cancelled' | 'lapsed';

export interface ViewingsTable {
  id: Generated<string>;
  location_id: string;
  product_id: string | null;
  product_name: string;
  lead_id: string | null;
  /** null for a guest's booking until an account proving its e-mail claims it */
  user_id: string | null;
  kind: ColumnType<ViewingKind, ViewingKind | undefined, ViewingKind>;
  guest_name: string | null;
  guest_email: string | null;
  confirm_token_hash: string | null;
  confirm_expires_at: Date | null;
  hold_until: Date | null;
  starts_at: Date;
  ends_at: Date;
  /** tstzrange: the viewing and the buffer after it; written as text '[start,end)' */
  blocked: ColumnType<string, string, string>;
  status: ColumnType<ViewingStatus, ViewingStatus | undefined, ViewingStatus>;
  reminder_sent_at: Date | null;
  created_at: ColumnType<Date, Date | undefined, never>;
}
