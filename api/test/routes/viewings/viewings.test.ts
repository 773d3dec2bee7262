import type { Viewing, ViewingLocation, ViewingSlots } from '@boatshop/contract';
import { sql } from 'kysely';
import { describe, expect } from 'vitest';
import { remindViewings } from '../../../src/features/viewings/viewing-reminders.js';
import { insertProduct } from '../../helpers/products.js';
import { createUserWithSession, type UserWithSession } from '../../helpers/users.js';
import { testWithApp, type TestApp } from '../../support/fixtures.js';

// Viewings: a marina's calendar set by the shop, free slots on the marina's clock, booking with
// an .ics invitation, and the database constraint that gives a raced slot to one shopper only.
// Runs on PGlite (no DATABASE_URL) and PostgreSQL (DATABASE_URL).

const test = testWithApp({
  config: { sales: { inbox: 'sales@boatshop.test', enquiriesPerHour: 100, messagesPerHour: 100, perIpPerMinute: 0 } },
});

const EVERY_DAY = Object.fromEntries(['1', '2', '3', '4', '5', '6', '7'].map((day) => [day, [['09:00', '18:00']]]));
const ANTIBES = {
  marina: 'Port Vauban, Antibes',
  address: 'Avenue de Verdun, 06600 Antibes, France',
  timeZone: 'Europe/Paris',
  slotMinutes: 60,
  bufferMinutes: 30,
  weeklyHours: EVERY_DAY,
};

interface Mail {
  to: string;
  subject: string;
  text: string;
  attachments?: { filename: string; content: string; contentType: string }[];
}

async function mails(app: TestApp): Promise<Mail[]> {
  const rows = await app.db.selectFrom('outbox').select('payload').where('kind', '=', 'mail').orderBy('created_at').execute();
  return rows.map((row) => row.payload as unknown as Mail);
}

/** The properties of an iCalendar file's VEVENT, folded lines joined (RFC 5545 §3.1). */
function icsEvent(ics: string): Record<string, string> {
  const lines = ics.replace(/\r?\n[ \t]/g, '').split(/\r?\n/);
  expect(lines[0]).toBe('BEGIN:VCALENDAR');
  const start = lines.indexOf('BEGIN:VEVENT');
  const end = lines.indexOf('END:VEVENT');
  expect(start).toBeGreaterThan(0);
  expect(end).toBeGreaterThan(start);
  return Object.fromEntries(
    lines.slice(start + 1, end).map((line) => {
      const colon = line.indexOf(':');
      return [line.slice(0, colon).split(';')[0]!, line.slice(colon + 1).replace(/\\,/g, ',')];
    }),
  );
}

/** "20261201T090000Z" as an ISO instant. */
const icsInstant = (value: string) => value.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, '$1-$2-$3T$4:$5:$6.000Z');

async function setUp(app: TestApp, admin: UserWithSession) {
  const created = await app.inject({ method: 'POST', url: '/api/admin/viewing-locations', headers: admin.headers, payload: ANTIBES });
  expect(created.statusCode, created.body).toBe(201);
  const boat = await insertProduct(app, { name: 'Belmare 64 Sport' });
  await app.db.updateTable('products').set({ location_marina: ANTIBES.marina }).where('id', '=', boat.id).execute();
  return { location: created.json() as ViewingLocation, boatId: boat.id };
}

async function slots(app: TestApp, boatId: string): Promise<ViewingSlots> {
  const response = await app.inject({ method: 'GET', url: `/api/viewings/slots?productId=${boatId}` });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

const book = (app: TestApp, who: UserWithSession, productId: string, startsAt: string) =>
  app.inject({ method: 'POST', url: '/api/viewings', headers: who.headers, payload: { productId, startsAt } });

describe('viewings', () => {
  test("offers slots on the marina's clock, books one with an .ics invitation that parses, and shows it on the lead", async ({
    app,
    admin,
    shopper,
  }) => {
    const { boatId } = await setUp(app, admin);
    const before = await slots(app, boatId);
    expect(before.place).toEqual({ marina: ANTIBES.marina, address: ANTIBES.address, timeZone: 'Europe/Paris' });
    const first = before.slots[0]!;
    // 09:00, 10:30, 12:00 … in Antibes: slot length 60 plus buffer 30.
    expect(
      before.slots
        .map((slot) => slot.label.slice(11))
        .filter((time, i, all) => all.indexOf(time) === i)
        .slice(0, 6),
    ).toEqual(expect.arrayContaining(['09:00', '10:30', '12:00', '13:30', '15:00', '16:30']));
    expect(new Date(first.startsAt).getTime()).toBeGreaterThan(Date.now() + 2 * 3_600_000);

    const booked = await book(app, shopper, boatId, first.startsAt);
    expect(booked.statusCode, booked.body).toBe(201);
    const viewing = booked.json() as Viewing;
    expect(viewing).toMatchObject({ status: 'booked', startsAt: first.startsAt, label: first.label, productName: 'Belmare 64 Sport' });
    expect((await slots(app, boatId)).slots.map((slot) => slot.startsAt)).not.toContain(first.startsAt);

    const [confirmation] = (await mails(app)).filter((mail) => mail.to === shopper.user.email);
    expect(confirmation!.subject).toBe(`Your viewing of the Belmare 64 Sport on ${first.label}`);
    expect(confirmation!.text).toContain(`/viewings/${viewing.id}`);
    const ics = confirmation!.attachments!.find((file) => file.filename === 'viewing.ics')!;
    expect(ics.contentType).toContain('text/calendar');
    const event = icsEvent(ics.content);
    expect(icsInstant(event.DTSTART!)).toBe(first.startsAt);
    expect(icsInstant(event.DTEND!)).toBe(first.endsAt);
    expect(event.LOCATION).toBe(`${ANTIBES.marina}, ${ANTIBES.address}`);
    expect(event.UID).toBe(`viewing-${viewing.id}@boatshop`);
    expect(event.DESCRIPTION).toContain(`/viewings/${viewing.id}`);

    const lead = await app.inject({ method: 'GET', url: `/api/admin/leads/${viewing.leadId}`, headers: admin.headers });
    expect(lead.json()).toMatchObject({ state: 'viewing_booked' });
    expect(lead.json().timeline).toEqual(
      expect.arrayContaining([expect.objectContaining({ kind: 'viewing_booked', detail: first.label })]),
    );
    const day = await app.inject({ method: 'GET', url: `/api/admin/viewings?day=${first.startsAt.slice(0, 10)}`, headers: admin.headers });
    expect(day.json().data).toEqual([expect.objectContaining({ id: viewing.id, buyerName: 'Sandy Shopper' })]);
  });

  test('five shoppers racing for one slot: one booking, the others are told and offered the next times', async ({ app, admin }) => {
    const { boatId } = await setUp(app, admin);
    const { slots: free } = await slots(app, boatId);
    const shoppers = await Promise.all([1, 2, 3, 4, 5].map((n) => createUserWithSession(app, { displayName: `Racer ${n}` })));
    const answers = await Promise.all(shoppers.map((who) => book(app, who, boatId, free[0]!.startsAt)));
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 409, 409, 409, 409]);
    const refused = answers.find((answer) => answer.statusCode === 409)!.json().error;
    expect(refused.code).toBe('SLOT_TAKEN');
    expect(refused.details).toEqual(free.slice(1, 4).map((slot) => slot.label));
    const rows = await app.db.selectFrom('viewings').select('id').where('status', '=', 'booked').execute();
    expect(rows).toHaveLength(1);
  });

  test('the database refuses overlapping booked viewings however they are written', async ({ app, admin, shopper }) => {
    const { location, boatId } = await setUp(app, admin);
    const row = (from: string, to: string) => ({
      location_id: location.id,
      product_id: boatId,
      product_name: 'Belmare 64 Sport',
      user_id: shopper.user.id,
      starts_at: new Date(from),
      ends_at: new Date(to),
      blocked: `[${from},${to})`,
    });
    await app.db.insertInto('viewings').values(row('2030-01-01T09:00:00Z', '2030-01-01T10:00:00Z')).execute();
    await expect(app.db.insertInto('viewings').values(row('2030-01-01T09:30:00Z', '2030-01-01T10:30:00Z')).execute()).rejects.toMatchObject(
      {
        code: '23P01',
      },
    );
    // Back to back is fine, and a cancelled viewing takes no time.
    await app.db.insertInto('viewings').values(row('2030-01-01T10:00:00Z', '2030-01-01T11:00:00Z')).execute();
    await app.db
      .insertInto('viewings')
      .values({ ...row('2030-01-01T09:15:00Z', '2030-01-01T09:45:00Z'), status: 'cancelled' })
      .execute();
  });

  test('reschedule and cancel: own viewings only; a cancelled slot is free again', async ({ app, admin, shopper }) => {
    const { boatId } = await setUp(app, admin);
    const { slots: free } = await slots(app, boatId);
    const viewing = (await book(app, shopper, boatId, free[0]!.startsAt)).json() as Viewing;
    const stranger = await createUserWithSession(app);
    expect((await app.inject({ method: 'POST', url: `/api/viewings/${viewing.id}/cancel`, headers: stranger.headers })).statusCode).toBe(
      404,
    );

    const moved = await app.inject({
      method: 'POST',
      url: `/api/viewings/${viewing.id}/reschedule`,
      headers: shopper.headers,
      payload: { startsAt: free[2]!.startsAt },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json()).toMatchObject({ startsAt: free[2]!.startsAt });
    const afterMove = (await slots(app, boatId)).slots.map((slot) => slot.startsAt);
    expect(afterMove).toContain(free[0]!.startsAt);
    expect(afterMove).not.toContain(free[2]!.startsAt);
    const movedMail = (await mails(app)).find((mail) => mail.subject.startsWith('Your viewing of the Belmare 64 Sport is moved'));
    expect(icsEvent(movedMail!.attachments![0]!.content).SEQUENCE).toBe('1');

    const cancelled = await app.inject({ method: 'POST', url: `/api/viewings/${viewing.id}/cancel`, headers: shopper.headers });
    expect(cancelled.json()).toMatchObject({ status: 'cancelled' });
    expect((await slots(app, boatId)).slots.map((slot) => slot.startsAt)).toContain(free[2]!.startsAt);
    const again = await app.inject({ method: 'POST', url: `/api/viewings/${viewing.id}/cancel`, headers: shopper.headers });
    expect(again.json()).toMatchObject({ status: 'cancelled' });
    const cancelMails = (await mails(app)).filter((mail) => mail.subject === 'Your viewing of the Belmare 64 Sport is cancelled');
    expect(cancelMails).toHaveLength(1);
    expect(icsEvent(cancelMails[0]!.attachments![0]!.content).STATUS).toBe('CANCELLED');
  });

  test('a holiday closes the day; a time the marina does not offer is refused', async ({ app, admin, shopper }) => {
    const { location, boatId } = await setUp(app, admin);
    const { slots: free } = await slots(app, boatId);
    const day = free[0]!.label.slice(0, 10).split('/').reverse().join('-');
    const closed = await app.inject({
      method: 'PUT',
      url: `/api/admin/viewing-locations/${location.id}/exceptions/${day}`,
      headers: admin.headers,
      payload: { hours: null, note: 'Boat show' },
    });
    expect(closed.statusCode, closed.body).toBe(200);
    expect(closed.json().exceptions).toEqual([{ day, hours: null, note: 'Boat show' }]);
    const labels = (await slots(app, boatId)).slots.map((slot) => slot.label);
    expect(labels.some((label) => label.startsWith(free[0]!.label.slice(0, 10)))).toBe(false);
    expect((await book(app, shopper, boatId, free[0]!.startsAt)).statusCode).toBe(400);
    const offGrid = new Date(new Date(free[3]!.startsAt).getTime() + 10 * 60_000).toISOString();
    expect((await book(app, shopper, boatId, offGrid)).json().error.message).toBe('This is not a viewing time the marina offers.');

    const bad = await app.inject({
      method: 'POST',
      url: '/api/admin/viewing-locations',
      headers: admin.headers,
      payload: { ...ANTIBES, marina: 'Elsewhere', timeZone: 'Mars/Olympus', weeklyHours: { '1': [['12:00', '09:00']] } },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.details).toHaveLength(2);
    expect(
      (await app.inject({ method: 'POST', url: '/api/admin/viewing-locations', headers: shopper.headers, payload: ANTIBES })).statusCode,
    ).toBe(403);
  });

  test('the reminder goes once, the day before', async ({ app, admin, shopper }) => {
    const { boatId } = await setUp(app, admin);
    const { slots: free } = await slots(app, boatId);
    const later = free.find((slot) => new Date(slot.startsAt).getTime() > Date.now() + 26 * 3_600_000)!;
    const viewing = (await book(app, shopper, boatId, later.startsAt)).json() as Viewing;
    expect(await remindViewings(app.db, app.config.publicUrl)).toBe(0);
    await sql`
      update viewings set starts_at = now() + interval '20 hours', ends_at = now() + interval '21 hours',
        blocked = tstzrange(now() + interval '20 hours', now() + interval '21 hours 30 minutes')
      where id = ${viewing.id}::uuid
    `.execute(app.db);
    expect(await remindViewings(app.db, app.config.publicUrl)).toBe(1);
    expect(await remindViewings(app.db, app.config.publicUrl)).toBe(0);
    const reminders = (await mails(app)).filter((mail) => mail.subject === 'Tomorrow: your viewing of the Belmare 64 Sport');
    expect(reminders).toHaveLength(1);
    expect(reminders[0]!.text).toContain(ANTIBES.address);
  });

  test('a boat without a viewing calendar says so', async ({ app }) => {
    const boat = await insertProduct(app);
    const response = await app.inject({ method: 'GET', url: `/api/viewings/slots?productId=${boat.id}` });
    expect(response.statusCode).toBe(404);
    expect(response.json().error.code).toBe('VIEWINGS_UNAVAILABLE');
  });
});
