import { describe, expect, it } from 'vitest';
import { formatDate } from '@boatshop/state';
import { shopperTimeline } from './order-timeline';

const day = (iso: string) => formatDate(iso);
const at = (n: number) => `2026-11-2${n}T12:00:00.000Z`;

describe('shopperTimeline', () => {
  it("tells the order's life in a shopper's words, oldest first, with carrier and tracking number under the shipping", () => {
    const lines = shopperTimeline({
      carrier: 'DHL',
      trackingNumber: 'JJD0001',
      timeline: [
        { status: 'delivered', at: at(4), amountCents: null, note: null },
        { status: 'paid', at: at(2), amountCents: null, note: null },
        { status: 'shipped', at: at(3), amountCents: null, note: 'Carrier: DHL, tracking number: JJD0001' },
        { status: 'partially_refunded', at: at(5), amountCents: 100_000, note: null },
        { status: 'refunded', at: at(6), amountCents: 1_900_000, note: null },
      ],
    });
    expect(lines.map(({ text, detail }) => [text, detail])).toEqual([
      [`Paid on ${day(at(2))}`, null],
      [`Shipped on ${day(at(3))}`, 'Carrier: DHL, tracking number: JJD0001'],
      [`Delivered on ${day(at(4))}`, null],
      [`Refunded 1.000,00\u00a0€ on ${day(at(5))}`, null],
      [`Refunded 19.000,00\u00a0€ on ${day(at(6))}`, null],
    ]);
  });

  it('names a cancellation with the money it gave back, a dispute and its end', () => {
    const lines = shopperTimeline({
      carrier: null,
      trackingNumber: null,
      timeline: [
        { status: 'paid', at: at(1), amountCents: null, note: null },
        { status: 'disputed', at: at(2), amountCents: null, note: null },
        { status: 'paid', at: at(3), amountCents: null, note: null },
        { status: 'cancelled', at: at(4), amountCents: 2_000_000, note: null },
      ],
    });
    expect(lines.map((line) => line.text)).toEqual([
      `Paid on ${day(at(1))}`,
      `Payment disputed with your bank on ${day(at(2))}`,
      `Payment dispute closed on ${day(at(3))}`,
      `Cancelled on ${day(at(4))}, 20.000,00\u00a0€ refunded`,
    ]);
  });

  it('gives only the tracking number when no carrier was named', () => {
    const [line] = shopperTimeline({
      carrier: null,
      trackingNumber: '1Z999',
      timeline: [{ status: 'shipped', at: at(1), amountCents: null, note: null }],
    });
    expect(line!.detail).toBe('Tracking number: 1Z999');
  });
  it('tells a deposit, a part of the balance by bank transfer and the transfer that completes it', () => {
    const lines = shopperTimeline({
      carrier: null,
      trackingNumber: null,
      timeline: [
        { status: 'reserved', at: at(1), amountCents: 28_900_000, note: 'Deposit paid' },
        { status: 'reserved', at: at(2), amountCents: 100_000_000, note: 'Bank transfer received' },
        { status: 'paid', at: at(3), amountCents: 160_100_000, note: 'Bank transfer received' },
      ],
    });
    expect(lines.map((line) => line.text)).toEqual([
      `Deposit paid 289.000,00\u00a0€ on ${day(at(1))}, the boat is reserved for you`,
      `Bank transfer received 1.000.000,00\u00a0€ on ${day(at(2))}`,
      `Bank transfer received 1.601.000,00\u00a0€ on ${day(at(3))}, paid in full`,
    ]);
  });
});
