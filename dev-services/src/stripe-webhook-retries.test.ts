import { describe, expect, it } from 'vitest';
import { WEBHOOK_RETRY_DELAYS_MS } from './stripe-standin.js';

describe("the Stripe stand-in's webhook retries", () => {
  it('retry soon at first and keep going through an API outage of many minutes, as Stripe does', () => {
    expect(WEBHOOK_RETRY_DELAYS_MS[0]).toBeLessThanOrEqual(1_000);
    // Each wait at least as long as the one before, none longer than five minutes.
    expect(WEBHOOK_RETRY_DELAYS_MS.every((delay, i) => i === 0 || delay >= WEBHOOK_RETRY_DELAYS_MS[i - 1]!)).toBe(true);
    expect(Math.max(...WEBHOOK_RETRY_DELAYS_MS)).toBeLessThanOrEqual(300_000);
    // A replica restart with the database restarting meanwhile took 105 s in the soak; the old 15 s lost events.
    const total = WEBHOOK_RETRY_DELAYS_MS.reduce((sum, delay) => sum + delay, 0);
    expect(total).toBeGreaterThan(30 * 60_000);
  });
});
