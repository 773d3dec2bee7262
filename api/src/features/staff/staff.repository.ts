import {
  STAFF_INVITATION_TTL_HOURS,
  STAFF_ROLES,
  staffRoleOf,
  type StaffInvitation,
  type StaffMember,
  type StaffRole,
} from '@boatshop/contract';
import { sql, type Transaction } from 'kysely';
import { randomBytes } from 'node:crypto';
import type { Database, Db } from '../../db/database.js';
import { conflict, notFound } from '../../lib/errors.js';
import { hashEmailToken } from '../auth/email-tokens.js';
import type { UserRow } from '../users/users.table.js';

function rowToStaffMember(row: Pick<UserRow, 'id' | 'email' | 'display_name' | 'roles'>): StaffMember {
  return { id: row.id, email: row.email, displayName: row.display_name, role: staffRoleOf(row.roles)! };
}

/** Everyone holding a staff role, owners first, then by name. */
export async function listStaff(db: Db): Promise<StaffMember[]> {
  const rows = await db
    .selectFrom('users')
    .select(['id', 'email', 'display_name', 'roles'])
    .where(sql<boolean>`roles && ${sql.val([...STAFF_ROLES])}::text[]`)
    .orderBy('display_name')
    .execute();
  const members = rows.map(rowToStaffMember);
  return [...members.filter((m) => m.role === 'owner'), ...members.filter((m) => m.role !== 'owner')];
}

/** Invitations neither accepted, revoked nor expired, newest first. */
export async function listOpenInvitations(db: Db): Promise<StaffInvitation[]> {
  const rows = await db
    .selectFrom('staff_invitations as i')
    .leftJoin('users as u', 'u.id', 'i.invited_by')
    .select(['i.id', 'i.email', 'i.role', 'i.created_at', 'i.expires_at', 'u.display_name as invited_by_name'])
    .where('i.accepted_at', 'is', null)
    .where('i.revoked_at', 'is', null)
    .where('i.expires_at', '>', new Date())
    .orderBy('i.created_at', 'desc')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    email: row.email,
    role: row.role as StaffRole,
    createdAt: row.created_at.toISOString(),
    expiresAt: row.expires_at.toISOString(),
    invitedBy: row.invited_by_name,
  }));
}

/**
 * A new invitation (older open ones to the same address are revoked: only the newest link works).
 * Returns the invitation and the link's token, which is stored only as a hash.
 */
export async function createInvitation(
  trx: Transaction<Database>,
  input: { email: string; role: StaffRole; invitedBy: string },
): Promise<{ invitation: StaffInvitation; token: string }> {
  const email = input.email.trim();
  await trx
    .updateTable('staff_invitations')
    .set({ revoked_at: new Date() })
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()))
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .execute();
  const token = randomBytes(32).toString('base64url');
  const row = await trx
    .insertInto('staff_invitations')
    .values({
      email,
      role: input.role,
      token_hash: hashEmailToken(token),
      invited_by: input.invitedBy,
      expires_at: new Date(Date.now() + STAFF_INVITATION_TTL_HOURS * 3600 * 1000),
    })
    .returning(['id'])
    .executeTakeFirstOrThrow();
  const invitation = (await listOpenInvitations(trx)).find((open) => open.id === row.id)!;
  return { invitation, token };
}

export async function revokeInvitation(db: Db, id: string): Promise<boolean> {
  const result = await db
    .updateTable('staff_invitations')
    .set({ revoked_at: new Date() })
    .where('id', '=', id)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * Gives a user one staff role (null: none, a shopper again). The owners' rows are locked first,
 * so two owners demoting each other at once cannot leave the shop without one: 409 LAST_OWNER
 * when the change would. Returns the row before and after.
 */
export async function setStaffRole(
  trx: Transaction<Database>,
  userId: string,
  role: StaffRole | null,
): Promise<{ before: StaffMember | null; after: StaffMember | null }> {
  const owners = await trx
    .selectFrom('users')
    .select('id')
    .where(sql<boolean>`'owner' = any(roles)`)
    .orderBy('id')
    .forUpdate()
    .execute();
  const user = await trx
    .selectFrom('users')
    .select(['id', 'email', 'display_name', 'roles'])
    .where('id', '=', userId)
    .forUpdate()
    .executeTakeFirst();
  if (!user) throw notFound('No such person');
  const current = staffRoleOf(user.roles);
  if (current === 'owner' && role !== 'owner' && owners.length <= 1) {
    throw conflict('LAST_OWNER', 'The shop needs at least one owner: make someone else owner first');
  }
  const roles = [...user.roles.filter((r) => !(STAFF_ROLES as readonly string[]).includes(r)), ...(role ? [role] : [])];
  const updated = await trx
    .updateTable('users')
    .set({ roles })
    .where('id', '=', userId)
    .returning(['id', 'email', 'display_name', 'roles'])
    .executeTakeFirstOrThrow();
  return { before: current ? rowToStaffMember(user) : null, after: role ? rowToStaffMember(updated) : null };
}

export type AcceptOutcome = { ok: true; role: StaffRole } | { ok: false; reason: 'unknown' | 'other_email' | 'unverified' };

/**
 * Spends an invitation for the signed-in user: only for the invited address, once proven. The
 * conditional update makes a link usable once even when two requests race with it.
 */
export async function acceptInvitation(
  trx: Transaction<Database>,
  user: { id: string; email: string; emailVerified: boolean },
  token: string,
): Promise<AcceptOutcome> {
  const invitation = await trx
    .selectFrom('staff_invitations')
    .select(['id', 'email', 'role'])
    .where('token_hash', '=', hashEmailToken(token))
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', new Date())
    .executeTakeFirst();
  if (!invitation) return { ok: false, reason: 'unknown' };
  if (invitation.email.toLowerCase() !== user.email.trim().toLowerCase()) return { ok: false, reason: 'other_email' };
  if (!user.emailVerified) return { ok: false, reason: 'unverified' };
  const spent = await trx
    .updateTable('staff_invitations')
    .set({ accepted_at: new Date() })
    .where('id', '=', invitation.id)
    .where('accepted_at', 'is', null)
    .executeTakeFirst();
  if (spent.numUpdatedRows === 0n) return { ok: false, reason: 'unknown' };
  const role = invitation.role as StaffRole;
  await setStaffRole(trx, user.id, role);
  return { ok: true, role };
}
