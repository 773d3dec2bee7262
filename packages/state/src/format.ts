import { decimalText, GERMAN_SEPARATORS } from '@boatshop/contract/constants';

// Euro amounts the German way: "20.000,00 €" (dot for thousands, comma for decimals, the sign
// after a non-breaking space), as Intl.NumberFormat('de-DE', EUR) writes them. Written out by
// decimalText, so a page that shows a price does not load Intl's number data (ADR 0086); Intl
// itself only for what decimalText leaves to it (-0 and the like).
let priceFormat: Intl.NumberFormat | undefined;

/** Formats integer euro cents; throws 'Invalid price value' for anything that is not a finite number. */
export function formatPrice(cents: number): string {
  if (typeof cents !== 'number' || !Number.isFinite(cents)) throw new Error('Invalid price value');
  const amount = decimalText(cents / 100, 2, 2, GERMAN_SEPARATORS);
  if (amount !== null) return `${amount}\u00a0€`;
  priceFormat ??= new Intl.NumberFormat('de-DE', {
    style: 'currency',
    currency: 'EUR',
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  });
  return priceFormat.format(cents / 100);
}

/**
 * An ISO 8601 instant as DD/MM/YYYY, in the reader's time zone unless one is given.
 * Throws 'Invalid date value' for anything that does not parse.
 */
export function formatDate(iso: string, timeZone?: string): string {
  const date = new Date(iso);
  if (typeof iso !== 'string' || Number.isNaN(date.getTime())) throw new Error('Invalid date value');
  // en-GB orders day, month, year with slashes; the parts are joined by hand so no locale
  // update can change the separator.
  const parts = new Intl.DateTimeFormat('en-GB', { day: '2-digit', month: '2-digit', year: 'numeric', timeZone }).formatToParts(date);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('day')}/${part('month')}/${part('year')}`;
}

/** An ISO 8601 instant as `DD/MM/YYYY HH:mm` (24-hour), for timelines where the hour matters. */
export function formatDateTime(iso: string, timeZone?: string): string {
  const day = formatDate(iso, timeZone);
  const parts = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone }).formatToParts(
    new Date(iso),
  );
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  return `${day} ${part('hour')}:${part('minute')}`;
}

/**
 * A calendar day (`YYYY-MM-DD`, as a due date) as DD/MM/YYYY. Read from the string, not through
 * `Date`: the day is the shop's, and no reader's time zone may move it to the day before.
 * Throws 'Invalid date value' for anything else.
 */
export function formatDay(day: string): string {
  const match = typeof day === 'string' ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(day) : null;
  if (!match) throw new Error('Invalid date value');
  return `${match[3]}/${match[2]}/${match[1]}`;
}
