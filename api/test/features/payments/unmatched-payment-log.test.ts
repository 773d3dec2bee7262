import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect } from 'vitest';
import { applyPaymentIntentState } from '../../../src/features/payments/payment-transitions.js';
import { it } from '../../support/fixtures.js';

// Money received without an order is an operator's emergency: the line must be at error level
// (pino level 50) and carry the intent id, so an alert on error logs finds it at once.
describe('a succeeded payment that matches no order', () => {
  it('is logged at error level with the intent id, amount and reason, and recorded once', async ({ app }) => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const log = pino({ level: 'info' }, stream);
    const intent = {
      id: 'pi_lost_and_found',
      status: 'succeeded' as const,
      amountCents: 4_200,
      currency: 'eur',
      failureMessage: null,
      clientSecret: null,
    };

    await app.db.transaction().execute((trx) => applyPaymentIntentState(trx, log, intent));

    const entries = lines
      .join('')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const unmatched = entries.filter((entry) => entry.paymentIntentId === 'pi_lost_and_found');
    expect(unmatched).toHaveLength(1);
    expect(unmatched[0]).toMatchObject({
      level: 50,
      msg: 'payment received without a matching order',
      paymentIntentId: 'pi_lost_and_found',
      amountCents: 4_200,
      currency: 'eur',
      reason: 'no_order',
    });
    const rows = await app.db.selectFrom('unmatched_payments').select(['provider_reference', 'reason']).execute();
    expect(rows).toEqual([{ provider_reference: 'pi_lost_and_found', reason: 'no_order' }]);
  });
});
