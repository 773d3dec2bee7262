import { describe, expect, it } from 'vitest';
import { UNANSWERED_AFTER_MS, waitsTooLong } from './admin-leads';

describe('waitsTooLong', () => {
  const now = Date.parse('2026-11-26T12:00:00.000Z');

  it('marks a buyer waiting more than a day, not one waiting a day or less, nor an answered lead', () => {
    expect(waitsTooLong(new Date(now - UNANSWERED_AFTER_MS - 1).toISOString(), now)).toBe(true);
    expect(waitsTooLong(new Date(now - UNANSWERED_AFTER_MS).toISOString(), now)).toBe(false);
    expect(waitsTooLong(new Date(now - 60_000).toISOString(), now)).toBe(false);
    expect(waitsTooLong(null, now)).toBe(false);
  });
});
