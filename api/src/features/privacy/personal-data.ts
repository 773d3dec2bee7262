import type { OrderStatus } from '@boatshop/contract';
import { sql, type Transaction } from 'kysely';
import type { Database, Db } from '../../db/database.js';
import { accountKey } from '../auth/throttle.js';
import { storedInvoiceDocument } from '../invoices/invoice-documents.js';
import { orderMoney } from '../ledger/ledger.js';

/**
 * Everything the shop holds about one shopper, in one place: what the export collects, what
 * erasure removes and what it must keep. Orders and their invoices stay for ten years (the
 * bookkeeping retention of the member states), with the billing name and address an invoice must
 * carry and the shipping country the VAT decision read; everything else personal goes.
 */

/**
 * Every table that can hold a shopper's personal data (a column naming a user, an e-mail, a name or
 * an address), with what erasure does to it. A test fails when a table with such a column is
 * missing here, so a new feature decides this when it adds one.
 */
export const PERSONAL_DATA_TABLES = {
  users: 'anonymised: the row stays for orders and invoices, with nothing personal',
  sessions: 'deleted',
  external_identities: 'deleted',
  password_reset_tokens: 'deleted',
  email_verification_tokens: 'deleted',
  auth_attempts: 'deleted (keyed by the hashed e-mail)',
  consents: 'deleted',
  privacy_requests: 'kept as the record of the erasure; export archives emptied',
  outbox: 'deleted: every e-mail to the shopper or about their orders',
  order_items: 'kept: the boats bought (its name column is the boat’s)',
  orders: 'kept ten years for the books: billing name and address, shipping country',
  invoice_documents: 'kept whole: the issued PDF and XML, byte for byte, for ten years',
  vat_buyer_checks: 'kept when an order was placed under it (the invoice names the VAT ID), else deleted',
  leads: 'anonymised: name, e-mail and address overwritten; the offers on them lose the buyer’s counter message',
  lead_messages: 'overwritten',
  lead_notes: 'overwritten',
  lead_events: 'details removed',
  viewings: 'kept for the funnel with the boat and the time only (their user row is anonymised); upcoming ones cancelled',
  viewing_locations: 'not a shopper’s: the marinas’ names and addresses',
  staff_invitations: 'not a shopper’s: staff are invited by e-mail and erased by an owner',
  audit_log: 'kept: staff accountability, naming staff and the ids of what they changed',
  saved_addresses: 'deleted (orders keep their own copy of the address they used)',
  favourites: 'deleted',
  saved_searches: 'deleted (their alerts stop with them)',
} as const;

/** Orders that still need the shopper: money or a boat is on its way. */
const OPEN_ORDER_STATUSES: readonly OrderStatus[] = ['pending', 'reserved', 'paid', 'shipped', 'disputed'];

export const ERASED_NAME = 'Erased account';
export const ERASED_TEXT = '(erased at the sender’s request)';

/** The address an erased account keeps: unique, never deliverable (RFC 2606's .invalid). */
export const erasedEmail = (userId: string) => `erased-${userId}@erased.invalid`;

async function invoiceDocumentsOf(db: Db, orderIds: string[]) {
  if (!orderIds.length) return [];
  const invoices = await db
    .selectFrom('invoices')
    .select(['id', 'number'])
    .where('order_id', 'in', orderIds)
    .orderBy('issued_at')
    .execute();
  const documents = [];
  for (const invoice of invoices) {
    const document = await storedInvoiceDocument(db, invoice.id);
    if (document) {
      const { content, ...rest } = document;
      documents.push({ number: invoice.number, ...rest, base64: content.toString('base64') });
    }
  }
  return documents;
}

/** Why the account cannot be erased yet, in words for the shopper; empty: it can. */
export async function erasureBlockers(db: Db, userId: string): Promise<string[]> {
  const orders = await db.selectFrom('orders').select(['id', 'status', 'payment_reference']).where('user_id', '=', userId).execute();
  const reasons: string[] = [];
  for (const order of orders) {
    const label = `Order ${order.id.slice(0, 8).toUpperCase()}`;
    if (order.status === 'pending' || order.status === 'reserved') {
      reasons.push(`${label} still holds a boat for you: pay it or cancel it first.`);
      continue;
    }
    if (OPEN_ORDER_STATUSES.includes(order.status)) {
      reasons.push(`${label} is still open (${order.status}): it must be delivered or closed first.`);
      continue;
    }
    const money = await orderMoney(db, order.id);
    if (money && money.atRiskCents > 0) reasons.push(`${label} has a payment under dispute with your bank.`);
  }
  const heldByOffer = await db
    .selectFrom('offers')
    .innerJoin('leads', 'leads.id', 'offers.lead_id')
    .select('offers.product_name')
    .where('leads.user_id', '=', userId)
    .where('offers.stock_held', '=', true)
    .execute();
  for (const offer of heldByOffer) reasons.push(`An accepted offer holds the ${offer.product_name} for you: pay it or let it lapse first.`);
  return reasons;
}

/** The export's archive: every row about the shopper, as the shopper would read it. */
export async function collectPersonalData(db: Db, userId: string): Promise<Record<string, unknown>> {
  const user = await db
    .selectFrom('users')
    .select(['id', 'email', 'display_name', 'roles', 'email_verified', 'created_at'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  const orders = await db.selectFrom('orders').selectAll().where('user_id', '=', userId).orderBy('created_at').execute();
  const orderIds = orders.map((order) => order.id);
  const ofOrders = <T>(load: (ids: string[]) => Promise<T[]>) => (orderIds.length ? load(orderIds) : Promise.resolve([] as T[]));
  const leads = await db.selectFrom('leads').selectAll().where('user_id', '=', userId).orderBy('created_at').execute();
  const leadIds = leads.map((lead) => lead.id);
  return {
    format: 'boatshop-personal-data/1',
    exportedAt: new Date().toISOString(),
    profile: {
      id: user.id,
      email: user.email,
      displayName: user.display_name,
      roles: user.roles,
      emailVerified: user.email_verified,
      createdAt: user.created_at,
    },
    signInProviders: await db.selectFrom('external_identities').select(['provider', 'created_at']).where('user_id', '=', userId).execute(),
    sessions: await db
      .selectFrom('sessions')
      .select(['created_at', 'expires_at', 'revoked_at'])
      .where('user_id', '=', userId)
      .orderBy('created_at')
      .execute(),
    signInHistory: await db
      .selectFrom('auth_attempts')
      .select(['action', 'client_address', 'created_at'])
      .where('account', '=', accountKey(user.email))
      .orderBy('created_at')
      .execute(),
    orders: orders.map((order) => ({
      id: order.id,
      status: order.status,
      totalCents: order.total_cents,
      currency: order.currency,
      depositCents: order.deposit_cents,
      shipping: order.shipping,
      billing: order.billing,
      createdAt: order.created_at,
      paidAt: order.paid_at,
      shippedAt: order.shipped_at,
      deliveredAt: order.delivered_at,
      carrier: order.carrier,
      trackingNumber: order.tracking_number,
    })),
    orderItems: await ofOrders((ids) =>
      db.selectFrom('order_items').select(['order_id', 'name', 'unit_price_cents', 'quantity']).where('order_id', 'in', ids).execute(),
    ),
    payments: await ofOrders((ids) =>
      db
        .selectFrom('order_payments')
        .select(['order_id', 'method', 'amount_cents', 'status', 'created_at', 'confirmed_at'])
        .where('order_id', 'in', ids)
        .execute(),
    ),
    refunds: await ofOrders((ids) =>
      db.selectFrom('order_refunds').select(['order_id', 'amount_cents', 'status', 'reason']).where('order_id', 'in', ids).execute(),
    ),
    invoices: await ofOrders((ids) =>
      db
        .selectFrom('invoices')
        .select(['order_id', 'number', 'kind', 'issued_at', 'net_cents', 'vat_cents', 'total_cents', 'wording', 'buyer_vat_id'])
        .where('order_id', 'in', ids)
        .orderBy('issued_at')
        .execute(),
    ),
    // The documents themselves, as issued (rendered and stored now if never downloaded): the
    // PDF/A-3 with its XML inside, base64-encoded.
    invoiceDocuments: await invoiceDocumentsOf(db, orderIds),
    vatChecks: await db
      .selectFrom('vat_buyer_checks')
      .select(['buyer_type', 'country_code', 'vat_id', 'vies_result', 'consultation_number', 'trader_name', 'checked_at'])
      .where('user_id', '=', userId)
      .execute(),
    enquiries: leads.map((lead) => ({
      id: lead.id,
      boat: lead.product_name,
      name: lead.buyer_name,
      email: lead.email,
      state: lead.state,
      createdAt: lead.created_at,
    })),
    messages: leadIds.length
      ? await db
          .selectFrom('lead_messages')
          .select(['lead_id', 'author', 'body', 'created_at'])
          .where('lead_id', 'in', leadIds)
          .orderBy('created_at')
          .execute()
      : [],
    offers: leadIds.length
      ? await db
          .selectFrom('offers')
          .select([
            'lead_id',
            'product_name',
            'price_cents',
            'counter_price_cents',
            'counter_message',
            'agreed_price_cents',
            'conditions',
            'state',
            'created_at',
          ])
          .select(sql<string>`to_char(valid_until, 'YYYY-MM-DD')`.as('valid_until'))
          .where('lead_id', 'in', leadIds)
          .orderBy('created_at')
          .execute()
      : [],
    viewings: await db
      .selectFrom('viewings')
      .select(['product_name', 'starts_at', 'ends_at', 'status', 'created_at'])
      .where('user_id', '=', userId)
      .orderBy('starts_at')
      .execute(),
    consents: await db
      .selectFrom('consents')
      .select(['topic', 'granted', 'wording', 'recorded_at'])
      .where('user_id', '=', userId)
      .orderBy('recorded_at')
      .execute(),
    addresses: await db
      .selectFrom('saved_addresses')
      .select(['kind', 'is_default', 'name', 'address', 'created_at', 'updated_at'])
      .where('user_id', '=', userId)
      .orderBy('created_at')
      .execute(),
    favourites: await db
      .selectFrom('favourites')
      .innerJoin('products', 'products.id', 'favourites.product_id')
      .select(['products.name as boat', 'favourites.product_id', 'favourites.created_at'])
      .where('favourites.user_id', '=', userId)
      .orderBy('favourites.created_at')
      .execute(),
    savedSearches: await db
      .selectFrom('saved_searches')
      .select(['name', 'path', 'query', 'alerts', 'created_at', 'last_alerted_at'])
      .where('user_id', '=', userId)
      .orderBy('created_at')
      .execute(),
  };
}

/**
 * Erases the account in the caller's transaction. The user row stays (orders and invoices refer
 * to it) with an address that can never sign in; sessions, sign-in providers, links, sign-in
 * history, unsent and sent e-mails, questions, messages, notes about the shopper, consents and
 * VAT checks no invoice needs are deleted or overwritten. The shopper's orders keep the billing
 * name and address and the shipping country; invoices are kept whole.
 */
export async function eraseAccount(trx: Transaction<Database>, userId: string): Promise<void> {
  const user = await trx.selectFrom('users').select(['email']).where('id', '=', userId).forUpdate().executeTakeFirstOrThrow();
  const email = user.email.toLowerCase();
  const orderIds = (await trx.selectFrom('orders').select('id').where('user_id', '=', userId).execute()).map((order) => order.id);

  await trx.deleteFrom('sessions').where('user_id', '=', userId).execute();
  await trx.deleteFrom('external_identities').where('user_id', '=', userId).execute();
  await trx.deleteFrom('password_reset_tokens').where('user_id', '=', userId).execute();
  await trx.deleteFrom('email_verification_tokens').where('user_id', '=', userId).execute();
  await trx.deleteFrom('auth_attempts').where('account', '=', accountKey(email)).execute();
  await trx.deleteFrom('consents').where('user_id', '=', userId).execute();
  await trx.deleteFrom('saved_addresses').where('user_id', '=', userId).execute();
  await trx.deleteFrom('favourites').where('user_id', '=', userId).execute();
  await trx.deleteFrom('saved_searches').where('user_id', '=', userId).execute();

  // E-mails written to the shopper, or about the shopper's orders: sent or not, they go.
  await trx
    .deleteFrom('outbox')
    .where((eb) =>
      eb.or([
        eb(sql`lower(payload->>'to')`, '=', email),
        ...(orderIds.length ? [eb.and([eb('kind', '=', 'order_mail'), eb(sql`payload->>'orderId'`, 'in', orderIds)])] : []),
      ]),
    )
    .execute();

  // Questions and conversations stay for the shop's funnel, with nothing personal in them.
  const leadIds = (
    await trx
      .selectFrom('leads')
      .select('id')
      .where((eb) => eb.or([eb('user_id', '=', userId), eb(sql`lower(email)`, '=', email)]))
      .execute()
  ).map((lead) => lead.id);
  if (leadIds.length) {
    await trx
      .updateTable('leads')
      .set({ buyer_name: ERASED_NAME, email: erasedEmail(userId), client_address: null, confirm_token_hash: null })
      .where('id', 'in', leadIds)
      .execute();
    await trx.updateTable('lead_messages').set({ body: ERASED_TEXT }).where('lead_id', 'in', leadIds).execute();
    await trx.updateTable('lead_notes').set({ body: ERASED_TEXT }).where('lead_id', 'in', leadIds).execute();
    await trx.updateTable('lead_events').set({ detail: null }).where('lead_id', 'in', leadIds).execute();
    await trx.updateTable('offers').set({ counter_message: null }).where('lead_id', 'in', leadIds).execute();
  }

  // Viewings stay for the funnel as a boat and a time; one still to come is called off.
  await trx
    .updateTable('viewings')
    .set({ status: 'cancelled' })
    .where('user_id', '=', userId)
    .where('status', '=', 'booked')
    .where('starts_at', '>', new Date())
    .execute();
  // A claimed guest booking also carried the guest's name and address.
  await trx.updateTable('viewings').set({ guest_name: null, guest_email: null }).where('user_id', '=', userId).execute();

  // A business's VAT check is part of the invoice when an order was placed under it.
  await trx
    .deleteFrom('vat_buyer_checks')
    .where('user_id', '=', userId)
    .where((eb) =>
      eb.not(eb.exists(eb.selectFrom('orders').select('orders.id').whereRef('orders.vat_buyer_check_id', '=', 'vat_buyer_checks.id'))),
    )
    .execute();

  // The shipping address gives way to the billing one an invoice needs; its country stays.
  if (orderIds.length) {
    await sql`
      update orders set
        shipping = jsonb_build_object(
          'name', billing->>'name',
          'address', (billing->'address') || jsonb_build_object('country', shipping->'address'->>'country')
        ),
        cart_key = null
      where id in (${sql.join(orderIds)})
    `.execute(trx);
  }

  await trx
    .updateTable('users')
    .set({ email: erasedEmail(userId), display_name: ERASED_NAME, password_hash: null, email_verified: false, erased_at: new Date() })
    .where('id', '=', userId)
    .execute();
}
