import { startSmtpServer, type RunningSmtpServer, type StoredMessage } from '@boatshop/dev-services';
import { sql } from 'kysely';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../../src/config.js';
import { startJobQueue } from '../../src/features/jobs/job-queue.js';
import { createMailer } from '../../src/features/mail/mailer.js';
import {
  deliverOutboxMessage,
  OUTBOX_JOB_EXPIRE_SECONDS,
  OUTBOX_QUEUE,
  OutboxMessageBusyError,
} from '../../src/features/outbox/outbox-delivery.js';
import { claimMessage, markEnqueued } from '../../src/features/outbox/outbox.repository.js';
import { buildTestApp, resetDatabase, type TestApp } from '../helpers/build-test-app.js';
import { insertPaidOrder } from '../helpers/orders.js';
import { createUserWithSession } from '../helpers/users.js';

// A replica killed (SIGKILL) while its job queue held an e-mail's delivery job: the job stays
// active in pg-boss and the message stays claimed. The e-mail must still go out, once, soon.

const apps: TestApp[] = [];
let smtp: RunningSmtpServer;
const pgliteDir = fs.mkdtempSync(path.join(os.tmpdir(), 'outbox-abandoned-'));
const JOBS_OFF = { enabled: false, pollingIntervalSeconds: 1, retryLimit: 3, retryDelaySeconds: 1, outboxSweepMs: 200 };

async function start(jobs: Config['jobs']): Promise<TestApp> {
  const app = await buildTestApp({
    jobs,
    mail: { smtpUrl: smtp.url, from: 'Boat shop <no-reply@boatshop.example>' },
    pgliteDir,
  });
  apps.push(app);
  return app;
}

async function mailbox(to: string): Promise<StoredMessage[]> {
  const response = await fetch(`${smtp.mailboxUrl}/api/messages?to=${encodeURIComponent(to)}`);
  return ((await response.json()) as { messages: StoredMessage[] }).messages;
}

beforeAll(async () => {
  smtp = await startSmtpServer({ port: 0, mailboxPort: 0 });
});
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
  await fetch(`${smtp.mailboxUrl}/api/messages`, { method: 'DELETE' });
});
afterAll(async () => {
  await smtp.close();
  fs.rmSync(pgliteDir, { recursive: true, force: true });
});

describe('an e-mail whose delivery was cut short by a killed process', () => {
  it('is sent once by another process within two minutes of the death, not a quarter of an hour later', async () => {
    const app = await start(JOBS_OFF);
    await resetDatabase(app);
    const shopper = await createUserWithSession(app, { email: 'killed@example.test' });
    await insertPaidOrder(app, shopper.user.id);
    const [row] = await app.db.selectFrom('outbox').select('id').execute();

    // The dead process: it queued the message, its worker took the job and claimed the message.
    const dead = await startJobQueue({
      db: app.db,
      pglite: app.pglite,
      databaseUrl: app.config.databaseUrl,
      config: { ...JOBS_OFF, enabled: true },
      log: app.log,
      expireInSeconds: { [OUTBOX_QUEUE]: OUTBOX_JOB_EXPIRE_SECONDS },
    });
    await dead.send(OUTBOX_QUEUE, { outboxId: row!.id }, { id: row!.id });
    await markEnqueued(app.db, [row!.id]);
    await sql`update pgboss.job set state = 'active', started_on = now() where id = ${row!.id}::uuid`.execute(app.db);
    expect(await claimMessage(app.db, row!.id)).toBeDefined();
    await dead.stop();
    // Two minutes pass: the job is still marked active, the claim has run out.
    await sql`update pgboss.job set started_on = started_on - interval '2 minutes' where id = ${row!.id}::uuid`.execute(app.db);
    await sql`update outbox set locked_until = locked_until - interval '2 minutes' where id = ${row!.id}::uuid`.execute(app.db);

    // On PGlite two processes share the folder one after the other, not at once.
    apps.splice(apps.indexOf(app), 1);
    await app.close();
    const survivor = await start({ ...JOBS_OFF, enabled: true });
    // What the queue's maintenance does every 30 s, now.
    await survivor.jobs.queue!.expireOverdue();
    await expect
      .poll(async () => (await survivor.db.selectFrom('outbox').select('sent_at').executeTakeFirst())?.sent_at ?? null, { timeout: 20_000 })
      .not.toBeNull();
    expect(await mailbox('killed@example.test')).toHaveLength(1);
    // Three API starts on a shared machine.
  }, 150_000);

  it('is not reported delivered by a retry that meets the claim still running, and is by one after it was sent', async () => {
    const app = await start(JOBS_OFF);
    await resetDatabase(app);
    const shopper = await createUserWithSession(app, { email: 'claimed@example.test' });
    await insertPaidOrder(app, shopper.user.id);
    const [row] = await app.db.selectFrom('outbox').select('id').execute();
    const mailer = createMailer(app.config.mail);
    try {
      expect(await claimMessage(app.db, row!.id)).toBeDefined();
      await expect(deliverOutboxMessage(app.db, mailer, 'http://shop.test', row!.id, app.log)).rejects.toBeInstanceOf(
        OutboxMessageBusyError,
      );
      expect(await mailbox('claimed@example.test')).toEqual([]);

      await sql`update outbox set locked_until = null where id = ${row!.id}::uuid`.execute(app.db);
      await deliverOutboxMessage(app.db, mailer, 'http://shop.test', row!.id, app.log);
      await deliverOutboxMessage(app.db, mailer, 'http://shop.test', row!.id, app.log);
      expect(await mailbox('claimed@example.test')).toHaveLength(1);
    } finally {
      mailer.close();
    }
  });
});
