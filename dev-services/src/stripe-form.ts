// Stripe's v1 API takes application/x-www-form-urlencoded bodies with bracket nesting
// (`metadata[order_id]=1`, `payment_method_types[0]=card`, `expand[]=latest_charge`), the
// format the `stripe` SDK and Stripe.js produce. This decodes it into plain nested values.

export type FormValue = string | FormObject | FormValue[];
export interface FormObject {
  [key: string]: FormValue;
}

export class FormDecodeError extends Error {}

function splitKey(key: string): string[] {
  const open = key.indexOf('[');
  if (open === -1) return [key];
  const head = key.slice(0, open);
  const rest = key.slice(open);
  const segments: string[] = [head];
  const pattern = /\[([^\]]*)\]/gy;
  let match: RegExpExecArray | null;
  let consumed = 0;
  while ((match = pattern.exec(rest)) !== null) {
    segments.push(match[1] ?? '');
    consumed = pattern.lastIndex;
  }
  if (consumed !== rest.length || head === '') {
    throw new FormDecodeError(`Invalid parameter name: ${key}`);
  }
  return segments;
}

function isIndex(segment: string): boolean {
  return segment === '' || /^\d+$/.test(segment);
}

function assign(container: FormObject | FormValue[], segments: string[], value: string, fullKey: string): void {
  const [segment, ...rest] = segments;
  if (segment === undefined) return;

  if (Array.isArray(container)) {
    if (!isIndex(segment)) throw new FormDecodeError(`Invalid array parameter: ${fullKey}`);
    const index = segment === '' ? container.length : Number(segment);
    if (rest.length === 0) {
      container[index] = value;
      return;
    }
    const existing = container[index];
    const child = existing ?? (isIndex(rest[0] ?? '') ? [] : {});
    if (typeof child === 'string') throw new FormDecodeError(`Conflicting parameter: ${fullKey}`);
    container[index] = child;
    assign(child, rest, value, fullKey);
    return;
  }

  if (rest.length === 0) {
    if (segment in container && typeof container[segment] !== 'string') {
      throw new FormDecodeError(`Conflicting parameter: ${fullKey}`);
    }
    container[segment] = value;
    return;
  }
  const existing = container[segment];
  const child = existing ?? (isIndex(rest[0] ?? '') ? [] : {});
  if (typeof child === 'string') throw new FormDecodeError(`Conflicting parameter: ${fullKey}`);
  container[segment] = child;
  assign(child, rest, value, fullKey);
}

/** Decodes a Stripe-style form body or query string; throws FormDecodeError on malformed keys. */
export function decodeStripeForm(body: string): FormObject {
  const result: FormObject = {};
  for (const [key, value] of new URLSearchParams(body)) {
    assign(result, splitKey(key), value, key);
  }
  return result;
}
