import { startSmtpServer, type RunningSmtpServer, type StoredMessage } from '@boatshop/dev-services';
import { sql } from 'kysely';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../../src/config.js';
import { markOrderPaid } from '../../src/features/orders/orders.write-repository.js';
import { deliverOutboxMessage, OutboxMessageBusyError } from '../../src/features/outbox/outbox-delivery.js';
import { createMailer } from '../../src/features/mail/mailer.js';
import { buildTestApp, resetDatabase, type TestApp } from '../helpers/build-test-app.js';
import { insertPaidOrder, insertPendingOrder } from '../helpers/orders.js';
import { createUserWithSession } from '../helpers/users.js';

// The outbox and the job queue (pg-boss) on the database under test, delivering to the dev SMTP
// server. Each app here is one API process; closing one without letting it deliver is a crash.

const apps: TestApp[] = [];
let smtp: RunningSmtpServer | null = null;
let smtpPort: number;
let mailboxPort: number;
const pgliteDir = fs.mkdtempSync(path.join(os.tmpdir(), 'outbox-test-'));

function jobsOn(overrides: Partial<Config> = {}): Partial<Config> {
  return {
    jobs: { enabled: true, pollingIntervalSeconds: 0.5, retryLimit: 5, retryDelaySeconds: 1, outboxSweepMs: 200 },
    mail: { smtpUrl: `smtp://127.0.0.1:${smtpPort}`, from: 'Boat shop <no-reply@boatshop.example>' },
    // On PGlite the processes share a folder, as they would share PostgreSQL.
    pgliteDir,
    ...overrides,
  };
}

async function start(overrides: Partial<Config> = {}): Promise<TestApp> {
  const app = await buildTestApp(jobsOn(overrides));
  apps.push(app);
  return app;
}

async function stop(app: TestApp) {
  apps.splice(apps.indexOf(app), 1);
  await app.close();
}

async function mailbox(to: string): Promise<StoredMessage[]> {
  if (!smtp) return [];
  const response = await fetch(`${smtp.mailboxUrl}/api/messages?to=${encodeURIComponent(to)}`);
  return ((await response.json()) as { messages: StoredMessage[] }).messages;
}

async function outboxRows(app: TestApp) {
  return app.db.selectFrom('outbox').select(['id', 'sent_at', 'attempts', 'last_error']).orderBy('created_at').execute();
}

beforeAll(async () => {
  smtp = await startSmtpServer({ port: 0, mailboxPort: 0 });
  smtpPort = Number(new URL(smtp.url).port);
  mailboxPort = Number(new URL(smtp.mailboxUrl).port);
  const first = await start({
    jobs: { enabled: false, pollingIntervalSeconds: 1, retryLimit: 0, retryDelaySeconds: 1, outboxSweepMs: 1000 },
  });
  await resetDatabase(first);
  await stop(first);
});
afterEach(async () => {
  for (const app of [...apps]) await stop(app);
  if (smtp) await fetch(`${smtp.mailboxUrl}/api/messages`, { method: 'DELETE' });
});
afterAll(async () => {
  await smtp?.close();
  fs.rmSync(pgliteDir, { recursive: true, force: true });
});

describe('the outbox', () => {
  it('sends the confirmation once, however often the paid webhook is replayed', async () => {
    const app = await start();
    await resetDatabase(app);
    const shopper = await createUserWithSession(app, { email: 'once@example.test' });
    const order = await insertPaidOrder(app, shopper.user.id);
    for (let i = 0; i < 3; i += 1) {
      await markOrderPaid(app.db, { paymentReference: order.paymentReference, amountCents: order.totalCents, currency: 'eur' });
    }
    await expect.poll(async () => (await outboxRows(app)).map((row) => row.sent_at !== null), { timeout: 15_000 }).toEqual([true]);
    const messages = await mailbox('once@example.test');
    expect(messages.map((m) => m.subject)).toEqual([`Thank you for your order ${order.id.slice(0, 8).toUpperCase()}`]);
    expect(messages[0]!.text).toContain(`/order/${order.id}`);

    const jobs = await app.inject({
      method: 'GET',
      url: '/api/admin/jobs',
      headers: (await createUserWithSession(app, { roles: ['user', 'owner'] })).headers,
    });
    expect(jobs.statusCode).toBe(200);
    expect(jobs.json().queues.every((queue: { waiting: number; failed: number }) => queue.waiting === 0 && queue.failed === 0)).toBe(true);
  });

  it('schedules the pending-order expiry and the data exports every minute, the purge and the viewing reminders hourly, the audit check, the balance reminders and the saved-search alerts daily', async () => {
    const app = await start();
    const { rows } = await sql<{ name: string; cron: string }>`select name, cron from pgboss.schedule order by name`.execute(app.db);
    expect(rows).toEqual([
      { name: 'audit.verify', cron: '30 3 * * *' },
      { name: 'housekeeping.purge', cron: '0 * * * *' },
      // find: the saved searches' alerts, daily
      { name: 'keep.saved-search-alerts', cron: '0 6 * * *' },
      // ledger: the daily reconciliation
      { name: 'ledger.reconcile', cron: '15 4 * * *' },
      { name: 'orders.balance-reminders', cron: '0 7 * * *' },
      { name: 'orders.expire-pending', cron: '* * * * *' },
      // ledger: refunds of unknown outcome asked about; holds past their deadline released
      { name: 'orders.settle-refunds', cron: '*/5 * * * *' },
      // people: the exports asked for, built every minute as well as on request
      { name: 'privacy.exports', cron: '* * * * *' },
      { name: 'stock.release-expired-holds', cron: '* * * * *' },
      // offers: the viewing reminders, hourly
      { name: 'viewings.reminders', cron: '15 * * * *' },
    ]);
  });

  it('delivers what a crashed process wrote but never sent, once, from the next process', async () => {
    const crashed = await start({
      jobs: { enabled: false, pollingIntervalSeconds: 1, retryLimit: 0, retryDelaySeconds: 1, outboxSweepMs: 1000 },
    });
    await resetDatabase(crashed);
    const shopper = await createUserWithSession(crashed, { email: 'crash@example.test' });
    const order = await insertPaidOrder(crashed, shopper.user.id);
    expect((await outboxRows(crashed)).map((row) => row.sent_at)).toEqual([null]);
    await stop(crashed);

    const next = await start();
    await expect.poll(async () => (await outboxRows(next)).map((row) => row.sent_at !== null), { timeout: 15_000 }).toEqual([true]);
    // And a second process on the same database does not send it again.
    const another = await start();
    await another.jobs.dispatchOutbox();
    expect(await mailbox('crash@example.test')).toHaveLength(1);
    expect((await mailbox('crash@example.test'))[0]!.subject).toContain(order.id.slice(0, 8).toUpperCase());
  });

  it('keeps retrying with backoff through an SMTP outage and sends once when the server is back', async () => {
    await smtp!.close();
    smtp = null;
    const app = await start();
    await resetDatabase(app);
    const shopper = await createUserWithSession(app, { email: 'outage@example.test' });
    await insertPaidOrder(app, shopper.user.id);

    await expect.poll(async () => (await outboxRows(app))[0]?.attempts ?? 0, { timeout: 15_000 }).toBeGreaterThanOrEqual(2);
    const [failing] = await outboxRows(app);
    expect(failing).toMatchObject({ sent_at: null, last_error: expect.stringMatching(/ECONNREFUSED|connect/i) });

    smtp = await startSmtpServer({ port: smtpPort, mailboxPort });
    await expect.poll(async () => (await outboxRows(app))[0]?.sent_at ?? null, { timeout: 30_000 }).not.toBeNull();
    expect(await mailbox('outage@example.test')).toHaveLength(1);
    const jobs = await app.inject({
      method: 'GET',
      url: '/api/admin/jobs',
      headers: (await createUserWithSession(app, { roles: ['user', 'owner'] })).headers,
    });
    expect(jobs.json().queues).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'outbox.deliver', waiting: 0, failed: 0 })]),
    );
  });

  it('lets one of several concurrent attempts at the same message send it', async () => {
    const app = await start({
      jobs: { enabled: false, pollingIntervalSeconds: 1, retryLimit: 0, retryDelaySeconds: 1, outboxSweepMs: 1000 },
    });
    await resetDatabase(app);
    const shopper = await createUserWithSession(app, { email: 'race@example.test' });
    await insertPaidOrder(app, shopper.user.id);
    const [row] = await outboxRows(app);
    const mailer = createMailer(app.config.mail);
    const attempts = await Promise.allSettled(
      Array.from({ length: 5 }, () => deliverOutboxMessage(app.db, mailer, 'http://shop.test', row!.id, app.log)),
    );
    mailer.close();
    expect(await mailbox('race@example.test')).toHaveLength(1);
    // An attempt that met another's claim is not done (the queue retries it), unless the message was sent by then.
    for (const attempt of attempts) {
      if (attempt.status === 'rejected') expect(attempt.reason).toBeInstanceOf(OutboxMessageBusyError);
    }
  });

  it('writes no e-mail for an unpaid attempt that expires or is replaced', async () => {
    const app = await start({
      jobs: { enabled: false, pollingIntervalSeconds: 1, retryLimit: 0, retryDelaySeconds: 1, outboxSweepMs: 1000 },
    });
    await resetDatabase(app);
    const shopper = await createUserWithSession(app);
    const pending = await insertPendingOrder(app, shopper.user.id);
    const { transitionOrder } = await import('../../src/features/orders/order-state.js');
    await app.db
      .transaction()
      .execute((trx) => transitionOrder(trx, { orderId: pending.id, to: 'expired', actor: { type: 'system', id: null } }));
    expect(await outboxRows(app)).toEqual([]);
  });
});
