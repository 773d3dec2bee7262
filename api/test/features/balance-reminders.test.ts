import { describe, expect } from 'vitest';
import { remindOverdueBalances } from '../../src/features/deposits/balance-reminders.js';
import { loadOrderMail } from '../../src/features/outbox/order-mail-templates.js';
import type { OrderMailPayload } from '../../src/features/outbox/order-mails.js';
import { insertPendingOrder } from '../helpers/orders.js';
import { createUserWithSession } from '../helpers/users.js';
import { markOrderPaid } from '../../src/features/orders/orders.write-repository.js';
import { orderCreditorReference } from '../../src/features/deposits/deposit-rules.js';
import { it, type TestApp } from '../support/fixtures.js';

// Deposits: a reserved order past its balance due date is flagged to admins and reminded to the
// shopper by e-mail exactly once, however often (and on however many replicas) the check runs.

/** A deposit order whose deposit the provider confirmed: reserved, due on `dueOn`. */
async function reservedOrder(app: TestApp, dueOn: string) {
  const shopper = await createUserWithSession(app);
  const order = await insertPendingOrder(app, shopper.user.id, { unitPriceCents: 289_000_000, quantity: 1 });
  await app.db
    .updateTable('orders')
    .set({ deposit_cents: 28_900_000, bank_reference: orderCreditorReference(order.id), balance_due_on: '2026-01-01' })
    .where('id', '=', order.id)
    .execute();
  await app.db.updateTable('order_payments').set({ amount_cents: 28_900_000 }).where('order_id', '=', order.id).execute();
  expect(await markOrderPaid(app.db, { paymentReference: order.paymentReference, amountCents: 28_900_000, currency: 'eur' })).toBe(
    order.id,
  );
  await app.db.updateTable('orders').set({ balance_due_on: dueOn }).where('id', '=', order.id).execute();
  return { ...order, shopper };
}

const reminders = (app: TestApp) =>
  app.db.selectFrom('outbox').select(['dedupe_key', 'payload']).where('dedupe_key', 'like', 'balance-reminder:%').execute();

describe('remindOverdueBalances', () => {
  it('writes one reminder per overdue reserved order, never twice, and none for orders not yet due', async ({ app }) => {
    const late = await reservedOrder(app, '2020-01-01');
    await reservedOrder(app, '2999-01-01');

    expect(await Promise.all([remindOverdueBalances(app.db), remindOverdueBalances(app.db)]).then((n) => n[0] + n[1])).toBe(1);
    expect(await remindOverdueBalances(app.db)).toBe(0);
    expect(await reminders(app)).toEqual([
      { dedupe_key: `balance-reminder:${late.id}`, payload: { template: 'balance_reminder', orderId: late.id, amountCents: null } },
    ]);

    const mail = await loadOrderMail(
      app.db,
      (await reminders(app))[0]!.payload as unknown as OrderMailPayload,
      'http://shop.test',
      app.config.deposits,
    );
    expect(mail!.subject).toContain('is overdue');
    expect(mail!.text).toContain(`Amount: 2.601.000,00\u00a0€`);
    expect(mail!.text).toContain('Due by: 01/01/2020');
  });

  it('the deposit itself writes the deposit e-mail with the bank details', async ({ app }) => {
    const order = await reservedOrder(app, '2999-01-01');
    const rows = await app.db.selectFrom('outbox').select('payload').execute();
    const payloads = rows.map((row) => row.payload as unknown as OrderMailPayload);
    expect(payloads).toEqual([{ template: 'deposit_received', orderId: order.id, amountCents: 28_900_000 }]);
    const mail = await loadOrderMail(app.db, payloads[0]!, 'http://shop.test', app.config.deposits);
    expect(mail!.text).toContain('Reference: RF');
    expect(mail!.text).toContain(`IBAN: DE89 3704 0044 0532 0130 00`);
  });
});
