import type { ColumnType, Generated } from 'kysely';
import type { LeadState } from '@boatshop/contract';

type CreatedAt = ColumnType<Date, Date | undefined, never>;

/** A shopper's enquiry about one boat: the lead the shop works on until it is won or lost. */
export interface LeadsTable {
  id: Generated<string>;
  product_id: string | null;
  product_name: string;
  user_id: string | null;
  buyer_name: string;
  /** lower-case */
  email: string;
  state: ColumnType<LeadState, LeadState | undefined, LeadState>;
  lost_reason: string | null;
  /** null while a guest has not confirmed by the e-mailed link */
  confirmed_at: Date | null;
  confirm_token_hash: string | null;
  confirm_expires_at: Date | null;
  awaiting_reply_since: Date | null;
  client_address: string | null;
  created_at: CreatedAt;
  last_activity_at: ColumnType<Date, Date | undefined, Date>;
}

export interface LeadMessagesTable {
  id: Generated<string>;
  lead_id: string;
  author: 'shopper' | 'shop';
  author_user_id: string | null;
  body: string;
  created_at: CreatedAt;
}

/** The shop's internal notes on a lead: admin-only, never in a shopper's answer. */
export interface LeadNotesTable {
  id: Generated<string>;
  lead_id: string;
  author_user_id: string | null;
  body: string;
  created_at: CreatedAt;
}

export interface LeadEventsTable {
  id: Generated<string>;
  lead_id: string;
  kind: string;
  detail: string | null;
  actor_user_id: string | null;
  created_at: CreatedAt;
}
