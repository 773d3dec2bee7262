import type { AdminLead, AdminLeadQuery, AdminLeadSummary, Enquiry, EnquirySummary, FunnelMonth, LeadMessage } from '@boatshop/contract';
import { ADMIN_LEADS_PAGE_SIZE } from '@boatshop/contract';
import { sql, type Selectable } from 'kysely';
import type { Db } from '../../db/database.js';
import type { LeadsTable } from './leads.table.js';

type LeadRow = Selectable<LeadsTable>;

const iso = (date: Date) => date.toISOString();

export function rowToEnquirySummary(row: LeadRow): EnquirySummary {
  return {
    id: row.id,
    productId: row.product_id,
    productName: row.product_name,
    state: row.state,
    createdAt: iso(row.created_at),
    lastActivityAt: iso(row.last_activity_at),
    answered: row.awaiting_reply_since === null,
  };
}

function rowToAdminSummary(row: LeadRow): AdminLeadSummary {
  return {
    id: row.id,
    productId: row.product_id,
    productName: row.product_name,
    buyerName: row.buyer_name,
    email: row.email,
    hasAccount: row.user_id !== null,
    state: row.state,
    createdAt: iso(row.created_at),
    lastActivityAt: iso(row.last_activity_at),
    awaitingReplySince: row.awaiting_reply_since ? iso(row.awaiting_reply_since) : null,
  };
}

export interface NewLead {
  productId: string;
  productName: string;
  userId: string | null;
  buyerName: string;
  email: string;
  message: string;
  clientAddress: string;
  /** null for a signed-in shopper (confirmed at once); a guest's link's hash and its expiry otherwise */
  confirmation: { tokenHash: string; expiresAt: Date } | null;
}

/** The lead and its first message; a signed-in shopper's is confirmed (and in the shop's inbox) at once. */
export async function insertLead(trx: Db, lead: NewLead): Promise<LeadRow> {
  const row = await trx
    .insertInto('leads')
    .values({
      product_id: lead.productId,
      product_name: lead.productName,
      user_id: lead.userId,
      buyer_name: lead.buyerName,
      email: lead.email.toLowerCase(),
      confirmed_at: lead.confirmation ? null : new Date(),
      confirm_token_hash: lead.confirmation?.tokenHash ?? null,
      confirm_expires_at: lead.confirmation?.expiresAt ?? null,
      awaiting_reply_since: new Date(),
      client_address: lead.clientAddress,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  await trx
    .insertInto('lead_messages')
    .values({ lead_id: row.id, author: 'shopper', author_user_id: lead.userId, body: lead.message })
    .execute();
  if (!lead.confirmation) await addEvent(trx, row.id, 'enquiry', null, lead.userId);
  return row;
}

/** Enquiries started in the last hour by this e-mail address or this account, confirmed or not. */
export async function countRecentEnquiries(db: Db, email: string, userId: string | null): Promise<number> {
  const row = await db
    .selectFrom('leads')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('created_at', '>', sql<Date>`now() - interval '1 hour'`)
    .where((eb) =>
      userId ? eb.or([eb('email', '=', email.toLowerCase()), eb('user_id', '=', userId)]) : eb('email', '=', email.toLowerCase()),
    )
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Messages an account wrote in the last hour, in all its conversations. */
export async function countRecentShopperMessages(db: Db, userId: string): Promise<number> {
  const row = await db
    .selectFrom('lead_messages')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('author', '=', 'shopper')
    .where('author_user_id', '=', userId)
    .where('created_at', '>', sql<Date>`now() - interval '1 hour'`)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/**
 * Confirms a guest's enquiry: the link's token is spent in the statement that checks it, so one
 * link works once. Returns the lead, or undefined when the token is unknown, expired or used.
 */
export async function confirmLead(trx: Db, tokenHash: string): Promise<LeadRow | undefined> {
  const row = await trx
    .updateTable('leads')
    .set({ confirmed_at: new Date(), confirm_token_hash: null, confirm_expires_at: null, last_activity_at: new Date() })
    .where('confirm_token_hash', '=', tokenHash)
    .where('confirmed_at', 'is', null)
    .where('confirm_expires_at', '>', new Date())
    .returningAll()
    .executeTakeFirst();
  if (row) await addEvent(trx, row.id, 'enquiry', null, null);
  return row;
}

/**
 * A guest's confirmed enquiries become the account's once the account has proven that e-mail
 * address: an unverified sign-up with someone else's address must not read their conversations.
 */
export async function claimGuestLeads(db: Db, user: { id: string; email: string; emailVerified: boolean }): Promise<void> {
  if (!user.emailVerified) return;
  await db
    .updateTable('leads')
    .set({ user_id: user.id })
    .where('user_id', 'is', null)
    .where('email', '=', user.email.toLowerCase())
    .where('confirmed_at', 'is not', null)
    .execute();
}

export async function listShopperEnquiries(db: Db, userId: string): Promise<EnquirySummary[]> {
  const rows = await db
    .selectFrom('leads')
    .selectAll()
    .where('user_id', '=', userId)
    .where('confirmed_at', 'is not', null)
    .orderBy('last_activity_at', 'desc')
    .orderBy('id', 'desc')
    .limit(200)
    .execute();
  return rows.map(rowToEnquirySummary);
}

export async function findLead(db: Db, id: string): Promise<LeadRow | undefined> {
  return db.selectFrom('leads').selectAll().where('id', '=', id).where('confirmed_at', 'is not', null).executeTakeFirst();
}

async function messagesOf(db: Db, leadId: string): Promise<LeadMessage[]> {
  const rows = await db
    .selectFrom('lead_messages')
    .select(['id', 'author', 'body', 'created_at'])
    .where('lead_id', '=', leadId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((row) => ({ id: row.id, author: row.author, body: row.body, createdAt: iso(row.created_at) }));
}

/** A shopper's own conversation, without anything internal; undefined for anyone else's. */
export async function findShopperEnquiry(db: Db, userId: string, id: string): Promise<Enquiry | undefined> {
  const row = await findLead(db, id);
  if (!row || row.user_id !== userId) return undefined;
  return { ...rowToEnquirySummary(row), messages: await messagesOf(db, id) };
}

/**
 * Adds a message to a conversation. The shopper's starts the clock of "waiting for an answer"
 * (unless it already runs); the shop's stops it and turns a new lead into an answered one.
 */
export async function addMessage(
  trx: Db,
  message: { leadId: string; author: 'shopper' | 'shop'; authorUserId: string; body: string },
): Promise<void> {
  await trx
    .insertInto('lead_messages')
    .values({ lead_id: message.leadId, author: message.author, author_user_id: message.authorUserId, body: message.body })
    .execute();
  const now = new Date();
  if (message.author === 'shopper') {
    await trx
      .updateTable('leads')
      .set({ last_activity_at: now, awaiting_reply_since: sql<Date>`coalesce(awaiting_reply_since, ${now})` })
      .where('id', '=', message.leadId)
      .execute();
  } else {
    await trx
      .updateTable('leads')
      .set({ last_activity_at: now, awaiting_reply_since: null, state: sql`case when state = 'new' then 'answered' else state end` })
      .where('id', '=', message.leadId)
      .execute();
    await addEvent(trx, message.leadId, 'replied', null, message.authorUserId);
  }
}

export async function addEvent(trx: Db, leadId: string, kind: string, detail: string | null, actorUserId: string | null): Promise<void> {
  await trx.insertInto('lead_events').values({ lead_id: leadId, kind, detail, actor_user_id: actorUserId }).execute();
}

export async function addNote(trx: Db, leadId: string, authorUserId: string, body: string): Promise<void> {
  await trx.insertInto('lead_notes').values({ lead_id: leadId, author_user_id: authorUserId, body }).execute();
}

/** Marks a lead lost; a won lead stays won. Returns false when the lead was won already. */
export async function markLeadLost(trx: Db, leadId: string, reason: string, actorUserId: string): Promise<boolean> {
  const row = await trx
    .updateTable('leads')
    .set({ state: 'lost', lost_reason: reason, last_activity_at: new Date(), awaiting_reply_since: null })
    .where('id', '=', leadId)
    .where('state', '<>', 'won')
    .returning('id')
    .executeTakeFirst();
  if (!row) return false;
  await addEvent(trx, leadId, 'lost', reason, actorUserId);
  return true;
}

/** The inbox: confirmed leads, most recent activity first, filtered by state, waiting, or a search. */
export async function listAdminLeads(db: Db, query: AdminLeadQuery): Promise<{ data: AdminLeadSummary[]; total: number }> {
  let base = db.selectFrom('leads').where('confirmed_at', 'is not', null);
  if (query.state) base = base.where('state', '=', query.state);
  if (query.unanswered) base = base.where('awaiting_reply_since', 'is not', null);
  const q = query.q?.trim();
  if (q) {
    const pattern = `%${q.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
    base = base.where((eb) =>
      eb.or([eb('product_name', 'ilike', pattern), eb('buyer_name', 'ilike', pattern), eb('email', 'ilike', pattern)]),
    );
  }
  const [rows, total] = await Promise.all([
    base
      .selectAll()
      .orderBy('last_activity_at', 'desc')
      .orderBy('id', 'desc')
      .limit(ADMIN_LEADS_PAGE_SIZE)
      .offset((query.page - 1) * ADMIN_LEADS_PAGE_SIZE)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow(),
  ]);
  return { data: rows.map(rowToAdminSummary), total: Number(total.count) };
}

/** One lead for the shop: the conversation, the internal notes and the timeline. */
export async function findAdminLead(db: Db, id: string): Promise<AdminLead | undefined> {
  const row = await findLead(db, id);
  if (!row) return undefined;
  const [messages, notes, events] = await Promise.all([
    messagesOf(db, id),
    db
      .selectFrom('lead_notes')
      .leftJoin('users', 'users.id', 'lead_notes.author_user_id')
      .select(['lead_notes.id', 'lead_notes.body', 'lead_notes.created_at', 'users.display_name'])
      .where('lead_notes.lead_id', '=', id)
      .orderBy('lead_notes.created_at')
      .execute(),
    db
      .selectFrom('lead_events')
      .leftJoin('users', 'users.id', 'lead_events.actor_user_id')
      .select(['lead_events.id', 'lead_events.kind', 'lead_events.detail', 'lead_events.created_at', 'users.display_name'])
      .where('lead_events.lead_id', '=', id)
      .orderBy('lead_events.created_at')
      .execute(),
  ]);
  return {
    ...rowToAdminSummary(row),
    lostReason: row.lost_reason,
    messages,
    notes: notes.map((note) => ({ id: note.id, body: note.body, authorName: note.display_name, createdAt: iso(note.created_at) })),
    timeline: events.map((event) => ({
      id: event.id,
      kind: event.kind,
      detail: event.detail,
      actorName: event.display_name,
      createdAt: iso(event.created_at),
    })),
  };
}

/** Funnel event kinds and the column each is counted in. */
const FUNNEL_KINDS = { enquiry: 'enquiries', viewing_booked: 'viewings', offer_sent: 'offers', won: 'orders' } as const;

/**
 * The funnel per calendar month (UTC), newest first: leads whose enquiry reached the shop, and the
 * leads that got a viewing, an offer, an order that month. Each lead counts once per step and month.
 */
export async function funnelByMonth(db: Db, months: number): Promise<FunnelMonth[]> {
  const rows = await db
    .selectFrom('lead_events')
    .select([
      sql<string>`to_char(date_trunc('month', created_at at time zone 'UTC'), 'YYYY-MM')`.as('month'),
      'kind',
      sql<number>`count(distinct lead_id)`.as('count'),
    ])
    .where('kind', 'in', Object.keys(FUNNEL_KINDS))
    .where(
      'created_at',
      '>=',
      sql<Date>`date_trunc('month', now() at time zone 'UTC') at time zone 'UTC' - make_interval(months => ${months - 1})`,
    )
    .groupBy(['month', 'kind'])
    .execute();
  const now = new Date();
  const result: FunnelMonth[] = [];
  for (let back = 0; back < months; back += 1) {
    const day = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 1));
    const month = `${day.getUTCFullYear()}-${String(day.getUTCMonth() + 1).padStart(2, '0')}`;
    const counts: FunnelMonth = { month, enquiries: 0, viewings: 0, offers: 0, orders: 0 };
    for (const row of rows.filter((r) => r.month === month))
      counts[FUNNEL_KINDS[row.kind as keyof typeof FUNNEL_KINDS]] = Number(row.count);
    result.push(counts);
  }
  return result;
}
