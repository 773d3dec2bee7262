import type { SavedSearch } from '@boatshop/contract';
import { describe, expect } from 'vitest';
import { sendSavedSearchAlerts } from '../../../src/features/keep/saved-search-alerts.js';
import { unsubscribeToken } from '../../../src/features/keep/unsubscribe-token.js';
import { collectPersonalData, eraseAccount } from '../../../src/features/privacy/personal-data.js';
import { insertProduct } from '../../helpers/products.js';
import { createUserWithSession, type UserWithSession } from '../../helpers/users.js';
import { testWithApp, type TestApp } from '../../support/fixtures.js';

// Saved searches, their daily alert (one e-mail per search and day, through the outbox) and the
// signed one-click unsubscribe link.

const test = testWithApp();

const URL = '/api/account/saved-searches';
const YACHTS_15_25 = {
  name: 'Big yachts',
  path: '/search/yachts?lengthMin=15&lengthMax=25',
  query: { category: 'yachts', lengthMin: 15, lengthMax: 25 },
  alerts: true,
};

async function save(app: TestApp, who: UserWithSession, body: object = YACHTS_15_25): Promise<SavedSearch> {
  const response = await app.inject({ method: 'POST', url: URL, headers: who.headers, payload: body });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

const run = (app: TestApp, now?: Date) =>
  sendSavedSearchAlerts(app.db, { publicUrl: app.config.publicUrl, secret: app.config.alerts.unsubscribeSecret, now });

async function alertMails(app: TestApp) {
  const rows = await app.db.selectFrom('outbox').select('payload').where('kind', '=', 'mail').execute();
  return rows
    .map((row) => row.payload as { to: string; subject: string; text: string; html: string; headers?: Record<string, string> })
    .filter((mail) => mail.subject.startsWith('New boats for your saved search'));
}

/** Moves a saved search's window back, as if it had been saved a while ago. */
const savedEarlier = (app: TestApp, id: string) =>
  app.db
    .updateTable('saved_searches')
    .set({ alerted_until: new Date(Date.now() - 3_600_000) })
    .where('id', '=', id)
    .execute();

const boat = (name: string, extra: object = {}) => ({ name, category: 'yachts' as const, length_overall_cm: 1800, ...extra });

describe('/api/account/saved-searches', () => {
  test('saves, lists and deletes; alerts record the consent; another shopper sees nothing and cannot delete', async ({ app, shopper }) => {
    const saved = await save(app, shopper);
    expect(saved).toMatchObject({ name: 'Big yachts', alerts: true, lastAlertedAt: null, query: { category: 'yachts', lengthMin: 15 } });
    const consent = await app.db.selectFrom('consents').select(['topic', 'granted']).where('user_id', '=', shopper.user.id).execute();
    expect(consent).toEqual([{ topic: 'boat_alerts', granted: true }]);

    const other = await createUserWithSession(app);
    expect((await app.inject({ method: 'GET', url: URL, headers: other.headers })).json().savedSearches).toEqual([]);
    const refused = await app.inject({ method: 'DELETE', url: `${URL}/${saved.id}`, headers: other.headers });
    expect(refused.statusCode).toBe(404);

    const listed = await app.inject({ method: 'GET', url: URL, headers: shopper.headers });
    expect(listed.json().savedSearches.map((search: SavedSearch) => search.id)).toEqual([saved.id]);
    expect((await app.inject({ method: 'DELETE', url: `${URL}/${saved.id}`, headers: shopper.headers })).statusCode).toBe(204);
    expect((await app.inject({ method: 'GET', url: URL, headers: shopper.headers })).json().savedSearches).toEqual([]);
  });

  test('refuses a blank name, an address off the search page and an impossible range with 400', async ({ app, shopper }) => {
    for (const payload of [
      { ...YACHTS_15_25, name: '   ' },
      { ...YACHTS_15_25, path: 'https://evil.example/search' },
      { ...YACHTS_15_25, query: { lengthMin: 30, lengthMax: 10 } },
      { ...YACHTS_15_25, query: { country: 'france' } },
    ]) {
      const response = await app.inject({ method: 'POST', url: URL, headers: shopper.headers, payload });
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
    }
  });
});

describe('the daily saved-search alert', () => {
  test('sends one e-mail listing only the new matching boats, never a sold one, and nothing more that day', async ({ app, shopper }) => {
    await insertProduct(app, boat('Listed before saving'));
    const saved = await save(app, shopper);
    await savedEarlier(app, saved.id);
    await app.db
      .updateTable('products')
      .set({ created_at: new Date(Date.now() - 7_200_000) })
      .where('name', '=', 'Listed before saving')
      .execute();
    await insertProduct(app, boat('Princess 62'));
    await insertProduct(app, boat('Sold Sunseeker', { stock_on_hand: 0 }));
    await insertProduct(app, boat('Too short', { length_overall_cm: 900 }));
    await insertProduct(app, boat('Sailing boat', { category: 'sailing-boats' }));

    expect(await run(app)).toBe(1);
    expect(await run(app)).toBe(0);
    const mails = await alertMails(app);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.to).toBe(shopper.user.email);
    expect(mails[0]!.text).toContain('Princess 62');
    for (const absent of ['Listed before saving', 'Sold Sunseeker', 'Too short', 'Sailing boat'])
      expect(mails[0]!.text).not.toContain(absent);
    expect(mails[0]!.headers).toMatchObject({ 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' });
    expect(mails[0]!.headers!['List-Unsubscribe']).toMatch(/^<http:\/\/.+\/api\/saved-searches\/unsubscribe\?token=.+>$/);

    // The next day (the day of the last run moved back one): only what is new since this alert.
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    await app.db.updateTable('saved_searches').set({ alerted_on: yesterday }).where('id', '=', saved.id).execute();
    await insertProduct(app, boat('Fairline 50'));
    expect(await run(app)).toBe(1);
    const next = (await alertMails(app)).find((mail) => mail.text.includes('Fairline 50'));
    expect(next?.text).not.toContain('Princess 62');
  });

  test('two runs at once write one e-mail per saved search', async ({ app, shopper }) => {
    const saved = await save(app, shopper);
    await savedEarlier(app, saved.id);
    await insertProduct(app, boat('Azimut 55'));
    const results = await Promise.all([run(app), run(app), run(app)]);
    expect(results.reduce((sum, n) => sum + n, 0)).toBe(1);
    expect(await alertMails(app)).toHaveLength(1);
  });

  test('sends nothing once the shopper withdrew the alerts consent', async ({ app, shopper }) => {
    const saved = await save(app, shopper);
    await savedEarlier(app, saved.id);
    await insertProduct(app, boat('Riva 56'));
    await app.db
      .insertInto('consents')
      .values({ user_id: shopper.user.id, topic: 'boat_alerts', granted: false, wording: 'withdrawn' })
      .execute();
    expect(await run(app)).toBe(0);
    expect(await alertMails(app)).toEqual([]);
  });

  test('the signed link stops the alerts without signing in (twice is fine); a tampered one is refused with 400', async ({
    app,
    shopper,
  }) => {
    const saved = await save(app, shopper);
    const token = unsubscribeToken(app.config.alerts.unsubscribeSecret, saved.id);
    const other = await save(app, shopper, { ...YACHTS_15_25, name: 'Other' });
    const forged = `${other.id}.${token.split('.')[1]}`;
    for (const bad of [forged, `${token}x`, token.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')), 'nonsense']) {
      const response = await app.inject({ method: 'POST', url: `/api/saved-searches/unsubscribe?token=${encodeURIComponent(bad)}` });
      expect(response.statusCode, bad).toBe(400);
    }
    for (let i = 0; i < 2; i += 1) {
      // As a mail client's one-click POST (RFC 8058): a form body, no cookies, no CSRF header.
      const response = await app.inject({
        method: 'POST',
        url: `/api/saved-searches/unsubscribe?token=${encodeURIComponent(token)}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'List-Unsubscribe=One-Click',
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual({ name: 'Big yachts' });
    }
    const rows = await app.db.selectFrom('saved_searches').select(['id', 'alerts']).orderBy('name').execute();
    expect(rows).toEqual([
      { id: saved.id, alerts: false },
      { id: other.id, alerts: true },
    ]);
  });

  test('an owner runs the alerts through the admin API; a shopper may not', async ({ app, shopper, admin }) => {
    const saved = await save(app, shopper);
    await savedEarlier(app, saved.id);
    await insertProduct(app, boat('Pershing 7X'));
    const refused = await app.inject({ method: 'POST', url: '/api/admin/jobs/saved-search-alerts', headers: shopper.headers });
    expect(refused.statusCode).toBe(403);
    const ran = await app.inject({ method: 'POST', url: '/api/admin/jobs/saved-search-alerts', headers: admin.headers });
    expect(ran.statusCode, ran.body).toBe(200);
    expect(ran.json()).toEqual({ sent: 1 });
  });

  test('the export lists saved searches and erasure deletes them', async ({ app, shopper }) => {
    await save(app, shopper);
    const archive = await collectPersonalData(app.db, shopper.user.id);
    expect(archive.savedSearches).toMatchObject([{ name: 'Big yachts', alerts: true }]);
    await app.db.transaction().execute((trx) => eraseAccount(trx, shopper.user.id));
    expect(await app.db.selectFrom('saved_searches').selectAll().where('user_id', '=', shopper.user.id).execute()).toEqual([]);
  });
});
