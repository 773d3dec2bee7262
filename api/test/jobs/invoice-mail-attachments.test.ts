import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startSmtpServer, type RunningSmtpServer, type StoredMessage } from '@boatshop/dev-services';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../../src/config.js';
import { orderCreditorReference } from '../../src/features/deposits/deposit-rules.js';
import { recordBankRefund } from '../../src/features/ledger/bank-refunds.js';
import { markOrderPaid } from '../../src/features/orders/orders.write-repository.js';
import { buildTestApp, resetDatabase, type TestApp } from '../helpers/build-test-app.js';
import { insertPaidOrder, insertPendingOrder } from '../helpers/orders.js';
import { createUserWithSession } from '../helpers/users.js';

// The e-mail of a money event carries the document the event issued: the deposit's e-mail the
// advance invoice, the confirmation of a card order its invoice. Delivered by the outbox and the
// job queue to the dev SMTP server, as in production; the attachment is the stored document, byte
// for byte what the shopper downloads from the order page.

const apps: TestApp[] = [];
let smtp: RunningSmtpServer;
const pgliteDir = fs.mkdtempSync(path.join(os.tmpdir(), 'invoice-mail-test-'));

function jobsOn(): Partial<Config> {
  return {
    jobs: { enabled: true, pollingIntervalSeconds: 0.5, retryLimit: 5, retryDelaySeconds: 1, outboxSweepMs: 200 },
    mail: { smtpUrl: smtp.url, from: 'Boat shop <no-reply@boatshop.example>' },
    pgliteDir,
  };
}

async function start(): Promise<TestApp> {
  const app = await buildTestApp(jobsOn());
  apps.push(app);
  await resetDatabase(app);
  return app;
}

async function mailbox(to: string): Promise<StoredMessage[]> {
  const response = await fetch(`${smtp.mailboxUrl}/api/messages?to=${encodeURIComponent(to)}`);
  return ((await response.json()) as { messages: StoredMessage[] }).messages;
}

async function allSent(app: TestApp) {
  const rows = await app.db.selectFrom('outbox').select('sent_at').execute();
  return rows.length > 0 && rows.every((row) => row.sent_at !== null);
}

function pdfText(content: Buffer): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'invoice-mail-')), 'a.pdf');
  fs.writeFileSync(file, content);
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
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

describe("the money event's e-mail carries its document", () => {
  it("attaches the advance invoice (the stored PDF the order page serves) and the balance's pro-forma to the deposit's e-mail, once however often the webhook is replayed", async () => {
    const app = await start();
    const shopper = await createUserWithSession(app, { email: 'deposit@example.test' });
    const order = await insertPendingOrder(app, shopper.user.id, { quantity: 1, unitPriceCents: 2_000_000 });
    await app.db
      .updateTable('orders')
      .set({ deposit_cents: 200_000, bank_reference: orderCreditorReference(order.id), balance_due_on: '2026-12-24' })
      .where('id', '=', order.id)
      .execute();
    await app.db.updateTable('order_payments').set({ amount_cents: 200_000 }).where('order_id', '=', order.id).execute();
    for (let i = 0; i < 3; i += 1) {
      await markOrderPaid(app.db, { paymentReference: order.paymentReference, amountCents: 200_000, currency: 'eur' });
    }
    await expect.poll(() => allSent(app), { timeout: 20_000 }).toBe(true);

    const messages = await mailbox('deposit@example.test');
    expect(messages.map((message) => message.subject)).toEqual([
      `Your boat is reserved: deposit received for order ${order.id.slice(0, 8).toUpperCase()}`,
    ]);
    const advance = await app.db
      .selectFrom('invoices')
      .select(['id', 'number', 'kind'])
      .where('order_id', '=', order.id)
      .executeTakeFirstOrThrow();
    expect(advance.kind).toBe('advance');
    const [attachment, proForma, ...others] = messages[0]!.attachments;
    expect(others).toEqual([]);
    expect(attachment).toMatchObject({ filename: `${advance.number}.pdf`, contentType: 'application/pdf' });
    // The balance it asks for, as a pro-forma with the reference and the QR code.
    expect(proForma).toMatchObject({ filename: `pro-forma-${order.id.slice(0, 8).toUpperCase()}.pdf`, contentType: 'application/pdf' });
    const request = pdfText(Buffer.from(proForma!.content, 'base64'));
    expect(request).toContain('Pro-forma: payment request');
    expect(request).toContain('Amount due 18.000,00 €');
    expect(request).toContain(`Reference: ${orderCreditorReference(order.id).replace(/(.{4})(?=.)/g, '$1 ')}`);
    expect(request).toContain('Due by 24/12/2026');
    const content = Buffer.from(attachment!.content, 'base64');
    const text = pdfText(content);
    expect(text).toContain(`Advance payment invoice ${advance.number}`);
    expect(text).toContain('2.000,00 €');

    // The same bytes as the download from the order page.
    const download = await app.inject({ method: 'GET', url: `/api/invoices/${advance.id}/pdf`, headers: shopper.headers });
    expect(download.statusCode).toBe(200);
    expect(createHash('sha256').update(content).digest('hex')).toBe(download.headers['x-content-sha256']);
  });

  it("attaches a card order's invoice to its confirmation, each refund's own credit note to its e-mail, and nothing where no document was issued", async () => {
    const app = await start();
    const shopper = await createUserWithSession(app, { email: 'card@example.test' });
    const order = await insertPaidOrder(app, shopper.user.id, { quantity: 1, unitPriceCents: 500_000 });
    const today = new Date().toISOString().slice(0, 10);
    // Two refunds of the same amount: each e-mail carries the credit note its own refund issued.
    for (const bankReference of ['OUT-1', 'OUT-2']) {
      await recordBankRefund(app.db, {
        orderId: order.id,
        amountCents: 100_000,
        refundedOn: today,
        bankReference,
        reason: null,
        actor: { type: 'system', id: null },
      });
    }
    await app.db.updateTable('orders').set({ status: 'shipped' }).where('id', '=', order.id).execute();
    await app.db
      .insertInto('outbox')
      .values({
        kind: 'order_mail',
        dedupe_key: `test-shipped:${order.id}`,
        payload: JSON.stringify({ template: 'order_shipped', orderId: order.id, amountCents: null }),
      })
      .execute();
    await expect.poll(() => allSent(app), { timeout: 20_000 }).toBe(true);

    const documents = await app.db
      .selectFrom('invoices')
      .select(['number', 'kind'])
      .where('order_id', '=', order.id)
      .orderBy('issued_at')
      .orderBy('sequence')
      .execute();
    expect(documents.map((document) => document.kind)).toEqual(['invoice', 'credit_note', 'credit_note']);
    const [invoice, firstCredit, secondCredit] = documents;

    const messages = await mailbox('card@example.test');
    const confirmation = messages.find((message) => message.subject.startsWith('Thank you for your order'));
    expect(confirmation?.attachments.map((a) => a.filename)).toEqual([`${invoice!.number}.pdf`]);
    expect(pdfText(Buffer.from(confirmation!.attachments[0]!.content, 'base64'))).toContain(`Invoice ${invoice!.number}`);

    const refunds = messages.filter((message) => message.subject.startsWith('Refund of'));
    expect(refunds.map((message) => message.attachments.map((a) => a.filename)).sort()).toEqual([
      [`${firstCredit!.number}.pdf`],
      [`${secondCredit!.number}.pdf`],
    ]);
    for (const message of refunds) {
      const number = message.attachments[0]!.filename.replace(/\.pdf$/, '');
      expect(pdfText(Buffer.from(message.attachments[0]!.content, 'base64'))).toContain(`Credit note ${number}`);
    }
    const shipped = messages.find((message) => message.subject.includes('has shipped'));
    expect(shipped?.attachments).toEqual([]);
  });
});
