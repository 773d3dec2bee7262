import type { Viewing, ViewingLocation, ViewingSlots } from '@boatshop/contract';
import { describe, expect } from 'vitest';
import { remindViewings } from '../../../src/features/viewings/viewing-reminders.js';
import { insertProduct } from '../../helpers/products.js';
import { createUserWithSession, type UserWithSession } from '../../helpers/users.js';
import { testWithApp, type TestApp } from '../../support/fixtures.js';

// Sea trials (a booking kind with the marina's own length, for the boats the admin allows) and
// guests' bookings (held, confirmed by an e-mailed link, joined to the account that proves the
// address). Runs on PGlite (no DATABASE_URL) and PostgreSQL (DATABASE_URL).

const test = testWithApp({
  config: { sales: { inbox: 'sales@boatshop.test', enquiriesPerHour: 3, messagesPerHour: 100, perIpPerMinute: 0 } },
});

const EVERY_DAY = Object.fromEntries(['1', '2', '3', '4', '5', '6', '7'].map((day) => [day, [['09:00', '18:00']]]));
const ANTIBES = {
  marina: 'Port Vauban, Antibes',
  address: 'Avenue de Verdun, 06600 Antibes, France',
  timeZone: 'Europe/Paris',
  slotMinutes: 60,
  bufferMinutes: 30,
  seaTrialMinutes: 120,
  weeklyHours: EVERY_DAY,
};

interface Mail {
  to: string;
  subject: string;
  text: string;
  attachments?: { filename: string; content: string }[];
}

async function mails(app: TestApp): Promise<Mail[]> {
  const rows = await app.db.selectFrom('outbox').select('payload').where('kind', '=', 'mail').orderBy('created_at').execute();
  return rows.map((row) => row.payload as unknown as Mail);
}

const tokenIn = (text: string) => new URL(/https?:\/\/\S+\/confirm-viewing\?token=\S+/.exec(text)![0]).searchParams.get('token')!;

async function setUp(app: TestApp, admin: UserWithSession, seaTrials: boolean) {
  const created = await app.inject({ method: 'POST', url: '/api/admin/viewing-locations', headers: admin.headers, payload: ANTIBES });
  expect(created.statusCode, created.body).toBe(201);
  expect((created.json() as ViewingLocation).seaTrialMinutes).toBe(120);
  const boat = await insertProduct(app, { name: 'Belmare 64 Sport', location_marina: ANTIBES.marina, sea_trials: seaTrials });
  return { boatId: boat.id };
}

async function slots(app: TestApp, boatId: string, kind: 'viewing' | 'sea_trial' = 'viewing'): Promise<ViewingSlots> {
  const response = await app.inject({ method: 'GET', url: `/api/viewings/slots?productId=${boatId}&kind=${kind}` });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

const book = (app: TestApp, who: UserWithSession, payload: Record<string, unknown>) =>
  app.inject({ method: 'POST', url: '/api/viewings', headers: who.headers, payload });

const bookAsGuest = (app: TestApp, headers: Record<string, string>, payload: Record<string, unknown>) =>
  app.inject({ method: 'POST', url: '/api/viewings/guest', headers, payload });

const confirm = (app: TestApp, headers: Record<string, string>, token: string) =>
  app.inject({ method: 'POST', url: '/api/viewings/guest/confirm', headers, payload: { token } });

describe('sea trials', () => {
  test('only for the boats the admin allows, which the product and its admin form carry', async ({ app, admin, shopper }) => {
    const { boatId } = await setUp(app, admin, false);
    const refused = await app.inject({ method: 'GET', url: `/api/viewings/slots?productId=${boatId}&kind=sea_trial` });
    expect(refused.statusCode).toBe(404);
    expect(refused.json().error.code).toBe('SEA_TRIALS_UNAVAILABLE');
    const first = (await slots(app, boatId)).slots[0]!;
    expect((await book(app, shopper, { productId: boatId, startsAt: first.startsAt, kind: 'sea_trial' })).statusCode).toBe(404);
    expect((await slots(app, boatId)).seaTrials).toBe(false);

    const product = (await app.inject({ method: 'GET', url: `/api/products/${boatId}` })).json();
    expect(product.seaTrials).toBe(false);
    const { id, createdAt, stock, availability, seaTrials, shortOrders, ...input } = product;
    void [id, createdAt, stock, availability, seaTrials, shortOrders];
    const updated = await app.inject({
      method: 'PUT',
      url: `/api/admin/products/${boatId}`,
      headers: admin.headers,
      payload: { ...input, seaTrials: true },
    });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json().seaTrials).toBe(true);
    expect((await slots(app, boatId)).seaTrials).toBe(true);
  });

  test("last the marina's sea trial length, take the time from viewings too, and are mailed, listed and reminded as sea trials", async ({
    app,
    admin,
    shopper,
  }) => {
    const { boatId } = await setUp(app, admin, true);
    const trials = await slots(app, boatId, 'sea_trial');
    expect(trials).toMatchObject({ kind: 'sea_trial', minutes: 120, seaTrials: true });
    // 120 minutes and a 30-minute buffer from 09:00: 09:00, 11:30, 14:00 (16:30 would end after 18:00), on a full day.
    const later = trials.slots.find(
      (slot) => slot.label.endsWith('09:00') && slot.label.slice(0, 10) !== trials.slots[0]!.label.slice(0, 10),
    )!;
    const dayOf = (label: string) => label.slice(0, 10);
    expect(trials.slots.filter((slot) => dayOf(slot.label) === dayOf(later.label)).map((slot) => slot.label.slice(11))).toEqual([
      '09:00',
      '11:30',
      '14:00',
    ]);
    expect(new Date(later.endsAt).getTime() - new Date(later.startsAt).getTime()).toBe(120 * 60_000);

    const booked = await book(app, shopper, { productId: boatId, startsAt: later.startsAt, kind: 'sea_trial' });
    expect(booked.statusCode, booked.body).toBe(201);
    const trial = booked.json() as Viewing;
    expect(trial).toMatchObject({ kind: 'sea_trial', endsAt: later.endsAt });

    // The viewing at 10:30 that day overlaps the sea trial (09:00 to 11:30 with its buffer): not offered, and refused.
    const viewingsThatDay = (await slots(app, boatId)).slots.filter((slot) => slot.label.startsWith(later.label.slice(0, 10)));
    expect(viewingsThatDay.map((slot) => slot.label.slice(11))).not.toContain('09:00');
    expect(viewingsThatDay.map((slot) => slot.label.slice(11))).not.toContain('10:30');
    const tenThirty = new Date(new Date(later.startsAt).getTime() + 90 * 60_000).toISOString();
    const other = await createUserWithSession(app);
    const clash = await book(app, other, { productId: boatId, startsAt: tenThirty });
    expect(clash.statusCode).toBe(409);
    expect(clash.json().error.code).toBe('SLOT_TAKEN');

    const mail = (await mails(app)).find((m) => m.to === shopper.user.email)!;
    expect(mail.subject).toBe(`Your sea trial of the Belmare 64 Sport on ${later.label}`);
    expect(mail.attachments![0]!.content).toContain('SUMMARY:Sea trial of the Belmare 64 Sport');

    const dayView = await app.inject({
      method: 'GET',
      url: `/api/admin/viewings?day=${later.startsAt.slice(0, 10)}`,
      headers: admin.headers,
    });
    expect(dayView.json().data).toEqual([expect.objectContaining({ id: trial.id, kind: 'sea_trial' })]);
    const lead = (await app.inject({ method: 'GET', url: `/api/admin/leads/${trial.leadId}`, headers: admin.headers })).json();
    expect(lead.timeline).toEqual(
      expect.arrayContaining([expect.objectContaining({ kind: 'viewing_booked', detail: `sea trial, ${later.label}` })]),
    );

    // Rescheduled on the sea trials' grid: a viewing-only time is refused.
    const next = trials.slots.find((slot) => slot.startsAt > later.startsAt && slot.label.endsWith('11:30'))!;
    const moved = await app.inject({
      method: 'POST',
      url: `/api/viewings/${trial.id}/reschedule`,
      headers: shopper.headers,
      payload: { startsAt: next.startsAt },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    const offGrid = await app.inject({
      method: 'POST',
      url: `/api/viewings/${trial.id}/reschedule`,
      headers: shopper.headers,
      payload: { startsAt: tenThirty },
    });
    expect(offGrid.json().error.message).toBe('This is not a sea trial time the marina offers.');

    await app.db
      .updateTable('viewings')
      .set({ starts_at: new Date(Date.now() + 20 * 3_600_000), ends_at: new Date(Date.now() + 22 * 3_600_000) })
      .where('id', '=', trial.id)
      .execute();
    expect(await remindViewings(app.db, app.config.publicUrl)).toBe(1);
    expect((await mails(app)).map((m) => m.subject)).toContain('Tomorrow: your sea trial of the Belmare 64 Sport');
  });
});

describe('guest bookings', () => {
  test('hold the time, reach the shop only once the link is opened, and join the account that proves the address', async ({
    app,
    admin,
    csrf,
    shopper,
  }) => {
    const { boatId } = await setUp(app, admin, true);
    const trial = (await slots(app, boatId, 'sea_trial')).slots[1]!;
    const held = await bookAsGuest(app, csrf.headers, {
      productId: boatId,
      startsAt: trial.startsAt,
      kind: 'sea_trial',
      name: 'Gina Guest',
      email: 'Gina@Example.test',
    });
    expect(held.statusCode, held.body).toBe(202);
    expect(held.json().outcome).toBe('confirm-by-email');
    expect(new Date(held.json().heldUntil).getTime()).toBeGreaterThan(Date.now() + 25 * 60_000);

    // Held: not offered, and a signed-in shopper is told the next times.
    expect((await slots(app, boatId, 'sea_trial')).slots.map((slot) => slot.startsAt)).not.toContain(trial.startsAt);
    const raced = await book(app, shopper, { productId: boatId, startsAt: trial.startsAt, kind: 'sea_trial' });
    expect(raced.statusCode).toBe(409);
    // Nothing reached the shop: one mail, to the guest.
    const [confirmation, ...others] = await mails(app);
    expect(others).toEqual([]);
    expect(confirmation).toMatchObject({ to: 'gina@example.test', subject: 'Confirm your sea trial of the Belmare 64 Sport' });
    expect((await app.inject({ method: 'GET', url: '/api/admin/leads', headers: admin.headers })).json().total).toBe(0);

    const token = tokenIn(confirmation!.text);
    const confirmed = await confirm(app, csrf.headers, token);
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json()).toMatchObject({ kind: 'sea_trial', status: 'booked', startsAt: trial.startsAt });
    const again = await confirm(app, csrf.headers, token);
    expect(again.statusCode).toBe(404);
    expect(again.json().error.code).toBe('LINK_INVALID');

    const all = await mails(app);
    const booked = all.find((m) => m.subject === `Your sea trial of the Belmare 64 Sport on ${trial.label}`)!;
    expect(booked.to).toBe('gina@example.test');
    expect(booked.attachments![0]!.content).toContain('LOCATION:Port Vauban');
    expect(all.some((m) => m.to === 'sales@boatshop.test' && m.subject === 'Gina Guest booked a sea trial of the Belmare 64 Sport')).toBe(
      true,
    );
    const inbox = (await app.inject({ method: 'GET', url: '/api/admin/leads', headers: admin.headers })).json();
    expect(inbox.data).toMatchObject([{ buyerName: 'Gina Guest', email: 'gina@example.test', state: 'viewing_booked', hasAccount: false }]);
    const dayView = await app.inject({
      method: 'GET',
      url: `/api/admin/viewings?day=${trial.startsAt.slice(0, 10)}`,
      headers: admin.headers,
    });
    expect(dayView.json().data).toEqual([expect.objectContaining({ buyerName: 'Gina Guest', email: 'gina@example.test' })]);

    // An account with that address sees the booking (and the conversation) once it has proven the address.
    const unproven = await createUserWithSession(app, { email: 'gina@example.test', emailVerified: false });
    expect((await app.inject({ method: 'GET', url: '/api/viewings', headers: unproven.headers })).json().data).toEqual([]);
    await app.db.updateTable('users').set({ email_verified: true }).where('id', '=', unproven.user.id).execute();
    const mine = (await app.inject({ method: 'GET', url: '/api/viewings', headers: unproven.headers })).json().data as Viewing[];
    expect(mine).toMatchObject([{ kind: 'sea_trial', startsAt: trial.startsAt }]);
    const conversations = (await app.inject({ method: 'GET', url: '/api/enquiries', headers: unproven.headers })).json().data;
    expect(conversations).toHaveLength(1);
    const cancelled = await app.inject({ method: 'POST', url: `/api/viewings/${mine[0]!.id}/cancel`, headers: unproven.headers });
    expect(cancelled.json()).toMatchObject({ status: 'cancelled' });
  });

  test('a lapsed hold frees the time; its link books it if still free, else says so with the next times', async ({
    app,
    admin,
    csrf,
    shopper,
  }) => {
    const { boatId } = await setUp(app, admin, false);
    const free = (await slots(app, boatId)).slots;
    const guest = (email: string, startsAt: string) => bookAsGuest(app, csrf.headers, { productId: boatId, startsAt, name: 'Gus', email });
    expect((await guest('gus@example.test', free[0]!.startsAt)).statusCode).toBe(202);
    expect((await guest('gus2@example.test', free[1]!.startsAt)).statusCode).toBe(202);
    const [first, second] = (await mails(app)).map((m) => tokenIn(m.text));
    await app.db
      .updateTable('viewings')
      .set({ hold_until: new Date(Date.now() - 1000) })
      .where('status', '=', 'pending')
      .execute();
    expect((await slots(app, boatId)).slots.map((slot) => slot.startsAt)).toContain(free[0]!.startsAt);

    // Someone takes the first time meanwhile: the first link is told, nothing changes.
    expect((await book(app, shopper, { productId: boatId, startsAt: free[0]!.startsAt })).statusCode).toBe(201);
    const late = await confirm(app, csrf.headers, first!);
    expect(late.statusCode).toBe(409);
    expect(late.json().error.code).toBe('SLOT_TAKEN');
    expect(late.json().error.details).toContain(free[2]!.label);
    // The second time is still free: its link books it.
    const stillFree = await confirm(app, csrf.headers, second!);
    expect(stillFree.statusCode, stillFree.body).toBe(200);
    const booked = await app.db.selectFrom('viewings').select('starts_at').where('status', '=', 'booked').orderBy('starts_at').execute();
    expect(booked.map((row) => row.starts_at.toISOString())).toEqual([free[0]!.startsAt, free[1]!.startsAt]);
  });

  test('guests and a shopper racing for one time: one hold or booking, the others are offered the next times', async ({
    app,
    admin,
    csrf,
    shopper,
  }) => {
    const { boatId } = await setUp(app, admin, false);
    const free = (await slots(app, boatId)).slots;
    const answers = await Promise.all([
      ...[1, 2, 3].map((n) =>
        bookAsGuest(app, csrf.headers, { productId: boatId, startsAt: free[0]!.startsAt, name: `Guest ${n}`, email: `g${n}@example.test` }),
      ),
      book(app, shopper, { productId: boatId, startsAt: free[0]!.startsAt }),
    ]);
    const codes = answers.map((answer) => answer.statusCode);
    expect(codes.filter((code) => code === 409)).toHaveLength(3);
    expect(codes.filter((code) => code === 201 || code === 202)).toHaveLength(1);
    for (const refused of answers.filter((answer) => answer.statusCode === 409)) {
      expect(refused.json().error).toMatchObject({ code: 'SLOT_TAKEN', details: free.slice(1, 4).map((slot) => slot.label) });
    }
    const taking = await app.db.selectFrom('viewings').select('id').where('status', 'in', ['booked', 'pending']).execute();
    expect(taking).toHaveLength(1);
  });

  test('spam gets nowhere: honeypot, missing fields, and the limit per address', async ({ app, admin, csrf }) => {
    const { boatId } = await setUp(app, admin, false);
    const free = (await slots(app, boatId)).slots;
    const base = { productId: boatId, name: 'Bot', email: 'bot@example.test' };
    const trapped = await bookAsGuest(app, csrf.headers, { ...base, startsAt: free[0]!.startsAt, website: 'http://spam.example' });
    expect(trapped.statusCode).toBe(202);
    expect(await app.db.selectFrom('viewings').select('id').execute()).toEqual([]);
    expect(await mails(app)).toEqual([]);

    const bad = await bookAsGuest(app, csrf.headers, { ...base, name: ' ', email: 'not-an-address', startsAt: free[0]!.startsAt });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.details).toEqual(['Please give your name.', 'Please give a valid e-mail address.']);
    const long = await bookAsGuest(app, csrf.headers, { ...base, name: 'x'.repeat(101), startsAt: free[0]!.startsAt });
    expect(long.statusCode).toBe(400);

    for (const slot of free.slice(0, 3))
      expect((await bookAsGuest(app, csrf.headers, { ...base, startsAt: slot.startsAt })).statusCode).toBe(202);
    const fourth = await bookAsGuest(app, csrf.headers, { ...base, email: 'BOT@example.test', startsAt: free[3]!.startsAt });
    expect(fourth.statusCode).toBe(429);
    expect(fourth.json().error.code).toBe('RATE_LIMITED');
    expect((await bookAsGuest(app, {}, { ...base, startsAt: free[4]!.startsAt })).statusCode).toBe(403);
  });
});
