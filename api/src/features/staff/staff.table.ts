import type { Generated, Selectable } from 'kysely';

/** An owner's invitation of someone (by e-mail) to a staff role; the link's token only as a SHA-256. */
export interface StaffInvitationsTable {
  id: Generated<string>;
  email: string;
  role: string;
  token_hash: string;
  invited_by: string | null;
  created_at: Generated<Date>;
  expires_at: Date;
  accepted_at: Date | null;
  revoked_at: Date | null;
}

export type StaffInvitationRow = Selectable<StaffInvitationsTable>;
