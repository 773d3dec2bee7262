import type { PrivacyStatus } from '@boatshop/contract';
import { sql } from 'kysely';
import { describe, expect } from 'vitest';
import { PERSONAL_DATA_TABLES } from '../../../src/features/privacy/personal-data.js';
import { buildRequestedExports } from '../../../src/features/privacy/privacy-requests.js';
import { bookLedger, insertPaidOrder, insertPendingOrder } from '../../helpers/orders.js';
import { createUserWithSession } from '../../helpers/users.js';
import { testWithApp, type TestApp } from '../../support/fixtures.js';

// A shopper's own data: consents, the export and erasure of the account.

const test = testWithApp({ config: { authRateLimitPerMinute: 0 } });

type Headers = Record<string, string>;

async function mails(app: TestApp, to: string): Promise<{ subject: string; text: string }[]> {
  const rows = await app.db.selectFrom('outbox').select(['payload']).where('kind', '=', 'mail').orderBy('created_at').execute();
  return rows.map((row) => row.payload as unknown as { to: string; subject: string; text: string }).filter((mail) => mail.to === to);
}

const linkIn = (text: string, path: RegExp) => new URL(new RegExp(`https?://\\S+${path.source}\\S*`).exec(text)![0]);

async function status(app: TestApp, headers: Headers): Promise<PrivacyStatus> {
  const response = await app.inject({ method: 'GET', url: '/api/account/privacy', headers });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

async function requestErasureLink(app: TestApp, headers: Headers, email: string): Promise<string> {
  const asked = await app.inject({ method: 'POST', url: '/api/account/privacy/erasure', headers });
  expect(asked.statusCode, asked.body).toBe(202);
  const sent = await mails(app, email);
  return linkIn(sent.at(-1)!.text, /\/account\/erase/).searchParams.get('token')!;
}

describe('consents', () => {
  test('records each answer with the wording shown, the latest counting', async ({ app, shopper }) => {
    expect((await status(app, shopper.headers)).consents).toEqual([
      { topic: 'boat_alerts', granted: false, recordedAt: null },
      { topic: 'newsletter', granted: false, recordedAt: null },
    ]);
    for (const granted of [true, false, true]) {
      const response = await app.inject({
        method: 'PUT',
        url: '/api/account/privacy/consents',
        headers: shopper.headers,
        payload: { topic: 'boat_alerts', granted },
      });
      expect(response.statusCode, response.body).toBe(200);
    }
    const rows = await app.db.selectFrom('consents').selectAll().where('user_id', '=', shopper.user.id).orderBy('recorded_at').execute();
    expect(rows.map((row) => row.granted)).toEqual([true, false, true]);
    expect(rows[0]!.wording).toMatch(/saved searches/);
    expect((await status(app, shopper.headers)).consents[0]).toMatchObject({ topic: 'boat_alerts', granted: true });
  });

  test('refuses an unknown topic and a visitor', async ({ app, shopper, csrf }) => {
    const unknown = await app.inject({
      method: 'PUT',
      url: '/api/account/privacy/consents',
      headers: shopper.headers,
      payload: { topic: 'everything', granted: true },
    });
    expect(unknown.statusCode).toBe(400);
    const visitor = await app.inject({ method: 'GET', url: '/api/account/privacy', headers: csrf.headers });
    expect(visitor.statusCode).toBe(401);
  });
});

describe('the export', () => {
  test('is built by the job, e-mailed as a link that downloads the archive for its owner only', async ({ app, shopper }) => {
    const order = await insertPaidOrder(app, shopper.user.id);
    const asked = await app.inject({ method: 'POST', url: '/api/account/privacy/export', headers: shopper.headers });
    expect(asked.statusCode, asked.body).toBe(202);
    expect(asked.json()).toMatchObject({ state: 'preparing' });
    // Asking twice while it is prepared is the same export.
    const again = await app.inject({ method: 'POST', url: '/api/account/privacy/export', headers: shopper.headers });
    expect(again.json().id).toBe(asked.json().id);

    expect(await buildRequestedExports(app.db, app.config.publicUrl, app.log)).toBe(1);
    expect(await buildRequestedExports(app.db, app.config.publicUrl, app.log)).toBe(0);
    expect((await status(app, shopper.headers)).export).toMatchObject({ id: asked.json().id, state: 'ready' });

    const [mail] = await mails(app, shopper.user.email);
    expect(mail!.subject).toBe('Your Boat shop data is ready to download');
    const link = linkIn(mail!.text, /\/api\/account\/privacy\/export\//);
    const download = await app.inject({ method: 'GET', url: `${link.pathname}${link.search}`, headers: shopper.headers });
    expect(download.statusCode, download.body).toBe(200);
    expect(download.headers['content-disposition']).toMatch(/^attachment; filename="boatshop-data-/);
    const archive = download.json();
    expect(archive.profile).toMatchObject({ id: shopper.user.id, email: shopper.user.email });
    expect(archive.orders.map((row: { id: string }) => row.id)).toEqual([order.id]);
    expect(archive.payments).toHaveLength(1);
    // The invoice the payment issued, as the PDF the shop stored.
    expect(archive.invoices).toHaveLength(1);
    expect(archive.invoiceDocuments.length).toBeGreaterThan(0);
    expect(Buffer.from(archive.invoiceDocuments[0].base64, 'base64').subarray(0, 5).toString()).toBe('%PDF-');

    // Another account with the same link, and the owner with a wrong token, get nothing.
    const other = await createUserWithSession(app);
    const stranger = await app.inject({ method: 'GET', url: `${link.pathname}${link.search}`, headers: other.headers });
    expect(stranger.statusCode).toBe(404);
    const forged = await app.inject({ method: 'GET', url: `${link.pathname}?token=forged`, headers: shopper.headers });
    expect(forged.statusCode).toBe(404);
  });
});

describe('erasure', () => {
  test('is refused with the reasons while an order holds a boat or money is under dispute', async ({ app, shopper }) => {
    await insertPendingOrder(app, shopper.user.id);
    const held = await app.inject({ method: 'POST', url: '/api/account/privacy/erasure', headers: shopper.headers });
    expect(held.statusCode).toBe(409);
    expect(held.json().error).toMatchObject({ code: 'ERASURE_BLOCKED' });
    expect(held.json().error.details[0]).toMatch(/still holds a boat for you/);

    const disputedShopper = await createUserWithSession(app);
    const order = await insertPaidOrder(app, disputedShopper.user.id);
    await app.db.updateTable('orders').set({ status: 'delivered' }).where('id', '=', order.id).execute();
    await bookLedger(app, order.id, [['dispute_opened', -order.totalCents]]);
    expect((await status(app, disputedShopper.headers)).erasureBlockers).toEqual([expect.stringMatching(/under dispute/)]);
  });

  test('after the e-mailed link: no sign-in, nothing personal left, the invoice with the billing name kept', async ({ app }) => {
    const shopper = await createUserWithSession(app, {
      email: 'erin@example.test',
      displayName: 'Erin Erased',
      password: 'a-long-passphrase-1',
    });
    const order = await insertPaidOrder(app, shopper.user.id);
    await app.db.updateTable('orders').set({ status: 'delivered' }).where('id', '=', order.id).execute();
    const lead = await app.db
      .insertInto('leads')
      .values({
        product_name: 'Belmare 64 Sport',
        user_id: shopper.user.id,
        buyer_name: 'Erin Erased',
        email: 'erin@example.test',
        state: 'answered',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await app.db
      .insertInto('lead_messages')
      .values({ lead_id: lead.id, author: 'shopper', author_user_id: shopper.user.id, body: 'Call me on 0171 555 0100' })
      .execute();
    await app.inject({
      method: 'PUT',
      url: '/api/account/privacy/consents',
      headers: shopper.headers,
      payload: { topic: 'newsletter', granted: true },
    });

    const token = await requestErasureLink(app, shopper.headers, 'erin@example.test');
    expect((await status(app, shopper.headers)).erasureRequested).toBe(true);
    const wrong = await app.inject({
      method: 'POST',
      url: '/api/account/privacy/erasure/confirm',
      headers: shopper.headers,
      payload: { token: 'nope' },
    });
    expect(wrong.statusCode).toBe(400);

    const confirmed = await app.inject({
      method: 'POST',
      url: '/api/account/privacy/erasure/confirm',
      headers: shopper.headers,
      payload: { token },
    });
    expect(confirmed.statusCode, confirmed.body).toBe(204);

    // Signed out everywhere, and the old e-mail and password open nothing.
    expect((await app.inject({ method: 'GET', url: '/api/account/privacy', headers: shopper.headers })).statusCode).toBe(401);
    const login = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: (await createUserWithSession(app)).headers,
      payload: { email: 'erin@example.test', password: 'a-long-passphrase-1' },
    });
    expect(login.statusCode).toBe(401);

    const user = await app.db.selectFrom('users').selectAll().where('id', '=', shopper.user.id).executeTakeFirstOrThrow();
    expect(user).toMatchObject({ display_name: 'Erased account', password_hash: null });
    expect(user.email).toBe(`erased-${shopper.user.id}@erased.invalid`);
    expect(user.erased_at).toBeInstanceOf(Date);

    // Nothing in the database still names the shopper, but what an invoice needs.
    const everything = JSON.stringify(
      await Promise.all(
        (['users', 'sessions', 'outbox', 'leads', 'lead_messages', 'consents', 'auth_attempts', 'privacy_requests'] as const).map((table) =>
          app.db.selectFrom(table).selectAll().execute(),
        ),
      ),
    );
    expect(everything).not.toMatch(/erin@example\.test|Erin Erased|0171 555 0100/i);
    const kept = await app.db.selectFrom('orders').select(['billing', 'shipping']).where('id', '=', order.id).executeTakeFirstOrThrow();
    expect(kept.billing).toMatchObject({ name: 'Sandy Card-Owner' });
    expect(kept.shipping).toMatchObject({ name: 'Sandy Card-Owner', address: { country: 'IE', line1: '2 Quay Street' } });
    expect(JSON.stringify(kept.shipping)).not.toMatch(/Harbour Road/);
    // The invoice the payment issued stays whole, naming the buyer as the law requires.
    const invoices = await app.db.selectFrom('invoices').select(['number', 'snapshot']).where('order_id', '=', order.id).execute();
    expect(invoices).toHaveLength(1);
    expect(invoices[0]!.snapshot?.buyer.name).toBe('Sandy Card-Owner');

    // The link worked once.
    const replay = await app.inject({
      method: 'POST',
      url: '/api/account/privacy/erasure/confirm',
      headers: shopper.headers,
      payload: { token },
    });
    expect(replay.statusCode).toBe(401);
  });

  test('a link clicked twice at once erases once and answers the other plainly', async ({ app, shopper }) => {
    const token = await requestErasureLink(app, shopper.headers, shopper.user.email);
    const answers = await Promise.all(
      [1, 2].map(() =>
        app.inject({ method: 'POST', url: '/api/account/privacy/erasure/confirm', headers: shopper.headers, payload: { token } }),
      ),
    );
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([204, 400]);
  });

  test('an order placed after the link was sent stops the erasure', async ({ app, shopper }) => {
    const token = await requestErasureLink(app, shopper.headers, shopper.user.email);
    await insertPendingOrder(app, shopper.user.id);
    const confirmed = await app.inject({
      method: 'POST',
      url: '/api/account/privacy/erasure/confirm',
      headers: shopper.headers,
      payload: { token },
    });
    expect(confirmed.statusCode).toBe(409);
    expect(
      (await app.db.selectFrom('users').select('erased_at').where('id', '=', shopper.user.id).executeTakeFirstOrThrow()).erased_at,
    ).toBeNull();
  });
});

describe('what erasure covers', () => {
  test('every table with a column naming a person is listed with what erasure does to it', async ({ server }) => {
    const { rows } = await sql<{ table_name: string; column_name: string }>`
      select table_name, column_name from information_schema.columns
      where table_schema = current_schema() and table_name not like 'kysely_migration%'
        and column_name ~ '(^|_)(user_id|email|name|address)$'
        and column_name not in ('product_name', 'series')
    `.execute(server.db);
    const holders = [...new Set(rows.map((row) => row.table_name))].filter((table) => !['products', 'vat_rates'].includes(table));
    expect(
      holders.filter((table) => !(table in PERSONAL_DATA_TABLES)),
      'tables erasure does not know about',
    ).toEqual([]);
  });
});
