import type { AdminLead, AdminLeadPage, Enquiry, EnquiryList, FunnelMonth } from '@boatshop/contract';
import { describe, expect } from 'vitest';
import { insertProduct } from '../../helpers/products.js';
import { createUserWithSession } from '../../helpers/users.js';
import { testWithApp, type TestApp } from '../../support/fixtures.js';

// The per-address limit off: every request of the file comes from one test client.
const test = testWithApp({
  config: { sales: { inbox: 'sales@boatshop.test', enquiriesPerHour: 3, messagesPerHour: 20, perIpPerMinute: 0 } },
});

// Enquiries and their conversations, from the product page to the shop's inbox and back.

type Headers = Record<string, string>;

async function outboxMails(app: TestApp): Promise<{ to: string; subject: string; text: string; html: string }[]> {
  const rows = await app.db.selectFrom('outbox').select(['payload']).where('kind', '=', 'mail').orderBy('created_at').execute();
  return rows.map((row) => row.payload as unknown as { to: string; subject: string; text: string; html: string });
}

const tokenIn = (text: string) => new URL(/https?:\/\/\S+\/enquiries\/confirm\?token=\S+/.exec(text)![0]).searchParams.get('token')!;

async function ask(app: TestApp, headers: Headers, payload: Record<string, unknown>) {
  return app.inject({ method: 'POST', url: '/api/enquiries', headers, payload });
}

async function inbox(app: TestApp, admin: Headers, query = ''): Promise<AdminLeadPage> {
  const response = await app.inject({ method: 'GET', url: `/api/admin/leads${query}`, headers: admin });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

describe('POST /api/enquiries', () => {
  test('reaches the shop from a guest only once the e-mailed link is opened, and the link works once', async ({ app, csrf, admin }) => {
    const boat = await insertProduct(app, { name: 'Belmare 64 Sport' });
    const asked = await ask(app, csrf.headers, {
      productId: boat.id,
      message: 'Is the teak deck original?',
      name: 'Gina Guest',
      email: 'Gina@Example.test',
    });
    expect(asked.statusCode, asked.body).toBe(202);
    expect(asked.json()).toEqual({ outcome: 'confirm-by-email', id: null });

    expect((await inbox(app, admin.headers)).total).toBe(0);
    const [confirmation] = await outboxMails(app);
    expect(confirmation!.to).toBe('Gina@Example.test');
    expect(confirmation!.subject).toBe('Confirm your question about the Belmare 64 Sport');

    const token = tokenIn(confirmation!.text);
    const confirmed = await app.inject({ method: 'POST', url: '/api/enquiries/confirm', headers: csrf.headers, payload: { token } });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json()).toEqual({ productName: 'Belmare 64 Sport' });

    const page = await inbox(app, admin.headers);
    expect(page.data).toMatchObject([
      { productName: 'Belmare 64 Sport', buyerName: 'Gina Guest', email: 'gina@example.test', state: 'new', hasAccount: false },
    ]);
    const mails = await outboxMails(app);
    expect(mails[1]).toMatchObject({ to: app.config.sales.inbox, subject: 'New enquiry about the Belmare 64 Sport' });
    expect(mails[1]!.text).toContain('Is the teak deck original?');

    const again = await app.inject({ method: 'POST', url: '/api/enquiries/confirm', headers: csrf.headers, payload: { token } });
    expect(again.statusCode).toBe(404);
    expect(again.json().error.code).toBe('LINK_INVALID');
  });

  test("takes a signed-in shopper's question directly, under the account's name and e-mail", async ({ app, shopper, admin }) => {
    const boat = await insertProduct(app);
    const asked = await ask(app, shopper.headers, {
      productId: boat.id,
      message: 'Can I see it in Antibes?',
      name: 'Someone Else',
      email: 'x@y.test',
    });
    expect(asked.statusCode, asked.body).toBe(202);
    const { outcome, id } = asked.json();
    expect(outcome).toBe('received');
    const page = await inbox(app, admin.headers);
    expect(page.data).toMatchObject([{ id, buyerName: 'Sandy Shopper', email: shopper.user.email.toLowerCase(), hasAccount: true }]);
    expect((await outboxMails(app)).map((mail) => mail.to)).toEqual([app.config.sales.inbox]);
  });

  test('answers a filled honeypot like a success and keeps nothing', async ({ app, csrf }) => {
    const boat = await insertProduct(app);
    const asked = await ask(app, csrf.headers, {
      productId: boat.id,
      message: 'Buy cheap watches',
      name: 'Bot',
      email: 'bot@spam.test',
      website: 'http://spam.test',
    });
    expect(asked.statusCode).toBe(202);
    expect(await app.db.selectFrom('leads').select('id').execute()).toEqual([]);
    expect(await outboxMails(app)).toEqual([]);
  });

  test('refuses more enquiries per hour from one e-mail address than the limit, whatever the name', async ({ app, csrf }) => {
    const boat = await insertProduct(app);
    for (let i = 0; i < app.config.sales.enquiriesPerHour; i += 1) {
      const asked = await ask(app, csrf.headers, {
        productId: boat.id,
        message: `Question ${i}`,
        name: `Name ${i}`,
        email: 'flood@example.test',
      });
      expect(asked.statusCode).toBe(202);
    }
    const refused = await ask(app, csrf.headers, { productId: boat.id, message: 'One more', name: 'Other', email: 'FLOOD@example.test' });
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.code).toBe('RATE_LIMITED');
    const other = await ask(app, csrf.headers, { productId: boat.id, message: 'Mine', name: 'Other', email: 'other@example.test' });
    expect(other.statusCode).toBe(202);
  });

  test('refuses an over-long message, a guest without e-mail, and an unknown boat', async ({ app, csrf }) => {
    const boat = await insertProduct(app);
    const long = await ask(app, csrf.headers, { productId: boat.id, message: 'x'.repeat(5001), name: 'A', email: 'a@example.test' });
    expect(long.statusCode).toBe(400);
    const noEmail = await ask(app, csrf.headers, { productId: boat.id, message: 'Hello', name: 'A', email: 'not-an-address' });
    expect(noEmail.statusCode).toBe(400);
    expect(noEmail.json().error.details).toEqual(['Please give a valid e-mail address.']);
    const unknown = await ask(app, csrf.headers, {
      productId: '3f1c2b9a-6d4e-4f10-9a2b-5c6d7e8f9a0b',
      message: 'Hello',
      name: 'A',
      email: 'a@example.test',
    });
    expect(unknown.statusCode).toBe(404);
    expect(await app.db.selectFrom('leads').select('id').execute()).toEqual([]);
  });

  test('refuses a request without the CSRF token', async ({ app }) => {
    const boat = await insertProduct(app);
    const response = await app.inject({
      method: 'POST',
      url: '/api/enquiries',
      payload: { productId: boat.id, message: 'Hi', name: 'A', email: 'a@example.test' },
    });
    expect(response.statusCode).toBe(403);
  });
});

describe('a conversation', () => {
  test('the shop answers, the shopper reads it and replies on the site; notes stay internal; nobody else sees it', async ({
    app,
    shopper,
    admin,
  }) => {
    const boat = await insertProduct(app, { name: 'Seahaven 58' });
    const { id } = (await ask(app, shopper.headers, { productId: boat.id, message: 'Engine hours?' })).json();

    const noted = await app.inject({
      method: 'POST',
      url: `/api/admin/leads/${id}/notes`,
      headers: admin.headers,
      payload: { body: 'Serious buyer, owns a 40 footer' },
    });
    expect(noted.statusCode, noted.body).toBe(200);
    const replied = await app.inject({
      method: 'POST',
      url: `/api/admin/leads/${id}/messages`,
      headers: admin.headers,
      payload: { body: '1.250 hours, serviced in May.' },
    });
    expect(replied.statusCode, replied.body).toBe(200);
    const lead: AdminLead = replied.json();
    expect(lead.state).toBe('answered');
    expect(lead.awaitingReplySince).toBeNull();
    expect(lead.notes.map((note) => note.body)).toEqual(['Serious buyer, owns a 40 footer']);
    expect(lead.timeline.map((event) => event.kind)).toEqual(['enquiry', 'replied']);

    const answerMail = (await outboxMails(app)).at(-1)!;
    expect(answerMail).toMatchObject({ to: shopper.user.email, subject: 'Your question about the Seahaven 58' });
    expect(answerMail.text).toContain('1.250 hours, serviced in May.');
    expect(answerMail.text).not.toContain('Serious buyer');

    const list: EnquiryList = (await app.inject({ method: 'GET', url: '/api/enquiries', headers: shopper.headers })).json();
    expect(list.data).toMatchObject([{ id, productName: 'Seahaven 58', state: 'answered', answered: true }]);
    const read = await app.inject({ method: 'GET', url: `/api/enquiries/${id}`, headers: shopper.headers });
    expect(read.body).not.toContain('Serious buyer');
    expect((read.json() as Enquiry).messages.map((m) => [m.author, m.body])).toEqual([
      ['shopper', 'Engine hours?'],
      ['shop', '1.250 hours, serviced in May.'],
    ]);

    const reply = await app.inject({
      method: 'POST',
      url: `/api/enquiries/${id}/messages`,
      headers: shopper.headers,
      payload: { body: '<b>Great</b>, when can I see it?' },
    });
    expect(reply.statusCode, reply.body).toBe(200);
    expect((reply.json() as Enquiry).answered).toBe(false);
    const shopMail = (await outboxMails(app)).at(-1)!;
    expect(shopMail.to).toBe(app.config.sales.inbox);
    expect(shopMail.html).toContain('&lt;b&gt;Great&lt;/b&gt;');
    expect((await inbox(app, admin.headers, '?unanswered=true')).data.map((l) => l.id)).toEqual([id]);

    const stranger = await createUserWithSession(app);
    expect((await app.inject({ method: 'GET', url: `/api/enquiries/${id}`, headers: stranger.headers })).statusCode).toBe(404);
    expect(
      (await app.inject({ method: 'POST', url: `/api/enquiries/${id}/messages`, headers: stranger.headers, payload: { body: 'hi' } }))
        .statusCode,
    ).toBe(404);
    expect((await app.inject({ method: 'GET', url: '/api/enquiries', headers: stranger.headers })).json()).toEqual({ data: [] });
    expect((await app.inject({ method: 'GET', url: `/api/admin/leads/${id}`, headers: shopper.headers })).statusCode).toBe(403);
    expect((await app.inject({ method: 'GET', url: '/api/enquiries' })).statusCode).toBe(401);
  });

  test("a guest's conversation joins the account that proves the same e-mail address, not an unproven one", async ({
    app,
    csrf,
    admin,
  }) => {
    const boat = await insertProduct(app, { name: 'Belmare 64 Sport' });
    await ask(app, csrf.headers, { productId: boat.id, message: 'Still for sale?', name: 'Gina', email: 'gina@example.test' });
    const token = tokenIn((await outboxMails(app))[0]!.text);
    await app.inject({ method: 'POST', url: '/api/enquiries/confirm', headers: csrf.headers, payload: { token } });
    const [lead] = (await inbox(app, admin.headers)).data;
    await app.inject({
      method: 'POST',
      url: `/api/admin/leads/${lead!.id}/messages`,
      headers: admin.headers,
      payload: { body: 'Yes, it is.' },
    });
    expect((await outboxMails(app)).at(-1)!.text).toContain('sign up with this e-mail address');

    const gina = await createUserWithSession(app, { email: 'Gina@example.test', emailVerified: false });
    expect((await app.inject({ method: 'GET', url: '/api/enquiries', headers: gina.headers })).json()).toEqual({ data: [] });

    await app.db.updateTable('users').set({ email_verified: true }).where('id', '=', gina.user.id).execute();
    const list: EnquiryList = (await app.inject({ method: 'GET', url: '/api/enquiries', headers: gina.headers })).json();
    expect(list.data.map((e) => e.id)).toEqual([lead!.id]);
    const read: Enquiry = (await app.inject({ method: 'GET', url: `/api/enquiries/${lead!.id}`, headers: gina.headers })).json();
    expect(read.messages.at(-1)).toMatchObject({ author: 'shop', body: 'Yes, it is.' });
  });
  test('refuses more messages per hour from one account than the limit, across its conversations', async ({ app, shopper }) => {
    const boat = await insertProduct(app);
    const id = (await ask(app, shopper.headers, { productId: boat.id, message: 'First' })).json().id as string;
    // The first message counts too: the limit is reached with the rest written straight to the table.
    const rest = Array.from({ length: app.config.sales.messagesPerHour - 1 }, (_, i) => ({
      lead_id: id,
      author: 'shopper' as const,
      author_user_id: shopper.user.id,
      body: `Message ${i}`,
    }));
    await app.db.insertInto('lead_messages').values(rest).execute();
    const refused = await app.inject({
      method: 'POST',
      url: `/api/enquiries/${id}/messages`,
      headers: shopper.headers,
      payload: { body: 'One more' },
    });
    expect(refused.statusCode).toBe(429);
    expect(await app.db.selectFrom('lead_messages').select('id').where('body', '=', 'One more').execute()).toEqual([]);
  });
});

describe('the leads inbox', () => {
  test('filters by state and search, marks a lead lost with its reason, counts the funnel per month', async ({ app, shopper, admin }) => {
    const belmare = await insertProduct(app, { name: 'Belmare 64 Sport' });
    const other = await insertProduct(app, { name: 'Nordwind 42' });
    const first = (await ask(app, shopper.headers, { productId: belmare.id, message: 'A' })).json().id as string;
    await ask(app, shopper.headers, { productId: other.id, message: 'B' });

    expect((await inbox(app, admin.headers, '?q=belmare')).data.map((l) => l.id)).toEqual([first]);
    const lost = await app.inject({
      method: 'POST',
      url: `/api/admin/leads/${first}/lost`,
      headers: admin.headers,
      payload: { reason: 'Bought elsewhere' },
    });
    expect(lost.statusCode, lost.body).toBe(200);
    expect(lost.json()).toMatchObject({ state: 'lost', lostReason: 'Bought elsewhere' });
    expect((await inbox(app, admin.headers, '?state=lost')).data.map((l) => l.id)).toEqual([first]);
    expect((await inbox(app, admin.headers, '?state=new')).total).toBe(1);

    const funnel = await app.inject({ method: 'GET', url: '/api/admin/leads/funnel?months=2', headers: admin.headers });
    expect(funnel.statusCode).toBe(200);
    const [thisMonth, lastMonth] = funnel.json().data as FunnelMonth[];
    const now = new Date();
    expect(thisMonth).toEqual({
      month: `${now.getUTCFullYear()}-${String(now.getUTCMonth() + 1).padStart(2, '0')}`,
      enquiries: 2,
      viewings: 0,
      offers: 0,
      orders: 0,
    });
    expect(lastMonth).toMatchObject({ enquiries: 0 });
  });

  test('refuses a blank reply and an unknown lead', async ({ app, shopper, admin }) => {
    const boat = await insertProduct(app);
    const id = (await ask(app, shopper.headers, { productId: boat.id, message: 'A' })).json().id as string;
    expect(
      (await app.inject({ method: 'POST', url: `/api/admin/leads/${id}/messages`, headers: admin.headers, payload: { body: '   ' } }))
        .statusCode,
    ).toBe(400);
    expect((await app.inject({ method: 'GET', url: '/api/admin/leads/not-a-uuid', headers: admin.headers })).statusCode).toBe(404);
  });
});
