// Numbers as Intl.NumberFormat writes them in en-GB and de-DE, without Intl.NumberFormat: a page's
// first NumberFormat loads the browser's number-formatting data, one uninterrupted stretch of 30 to
// 55 ms on a desktop core and four times that on a phone's, right while the page becomes
// interactive (ADR 0086). The server and the browser must print the same text (hydration compares
// them), so the rules are Intl's own: round the number's shortest decimal form half away from
// zero, drop trailing zeros down to the minimum, group the whole part by threes.

export interface NumberSeparators {
  group: string;
  decimal: string;
}

export const ENGLISH_SEPARATORS: NumberSeparators = { group: ',', decimal: '.' };
export const GERMAN_SEPARATORS: NumberSeparators = { group: '.', decimal: ',' };

/** Adds one to a string of decimal digits ("199" → "200", "99" → "100"). */
function incremented(digits: string): string {
  const out = digits.split('');
  for (let i = out.length - 1; i >= 0; i -= 1) {
    if (out[i] !== '9') {
      out[i] = String(Number(out[i]) + 1);
      return out.join('');
    }
    out[i] = '0';
  }
  return `1${out.join('')}`;
}

function grouped(whole: string, separator: string): string {
  let out = '';
  for (let end = whole.length; end > 0; end -= 3) {
    const start = Math.max(0, end - 3);
    out = out ? `${whole.slice(start, end)}${separator}${out}` : whole.slice(start, end);
  }
  return out;
}

/**
 * `value` with `minDigits` to `maxDigits` decimals, as Intl.NumberFormat (en-GB or de-DE, default
 * grouping and rounding) writes it with those separators. Null where these rules are not enough
 * (not finite, exponent form, a negative that rounds to zero): the caller then asks Intl.
 */
export function decimalText(value: number, minDigits: number, maxDigits: number, separators: NumberSeparators): string | null {
  if (!Number.isFinite(value) || Object.is(value, -0)) return null;
  const shortest = String(Math.abs(value));
  if (/e/i.test(shortest)) return null;
  const [whole = '0', fraction = ''] = shortest.split('.');
  let digits = `${whole}${fraction.slice(0, maxDigits).padEnd(maxDigits, '0')}`;
  if (fraction.length > maxDigits && fraction[maxDigits]! >= '5') digits = incremented(digits);
  const wholeDigits = digits.slice(0, digits.length - maxDigits) || '0';
  let decimals = digits.slice(digits.length - maxDigits);
  while (decimals.length > minDigits && decimals.endsWith('0')) decimals = decimals.slice(0, -1);
  if (value < 0 && /^0*$/.test(`${wholeDigits}${decimals}`)) return null;
  const text = grouped(wholeDigits, separators.group) + (decimals ? `${separators.decimal}${decimals}` : '');
  return value < 0 ? `-${text}` : text;
}

const SEPARATORS = { 'en-GB': ENGLISH_SEPARATORS, 'de-DE': GERMAN_SEPARATORS } as const;

function localNumber(locale: keyof typeof SEPARATORS, value: number, minDigits: number, maxDigits: number): string {
  return (
    decimalText(value, minDigits, maxDigits, SEPARATORS[locale]) ??
    new Intl.NumberFormat(locale, { minimumFractionDigits: minDigits, maximumFractionDigits: maxDigits }).format(value)
  );
}

/** `decimalText` in English (en-GB): "1,234.5". */
export function englishNumber(value: number, minDigits: number, maxDigits: number): string {
  return localNumber('en-GB', value, minDigits, maxDigits);
}

/** `decimalText` in German (de-DE): "1.234,5". */
export function germanNumber(value: number, minDigits: number, maxDigits: number): string {
  return localNumber('de-DE', value, minDigits, maxDigits);
}
