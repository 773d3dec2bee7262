import { MAX_PRICE_CENTS, MAX_STOCK, PRODUCT_NAME_MAX_LENGTH, PRODUCT_NAME_MIN_LENGTH, type ProductInput } from '@boatshop/contract';
import { badRequest } from '../../lib/errors.js';
import { normaliseSpecs } from './boat-specs.js';
import { sanitizeDescription } from './sanitize-description.js';

// What the schema (the contract's ProductInputSchema) cannot say: trimmed lengths, web addresses,
// NUL characters, ranges; and the description sanitised before it is stored.

// A shipped demo picture, or an uploaded picture's card file (what the form shows for a boat whose first picture was uploaded).
const SHIPPED_PICTURE = /^\/api\/(?:images\/[\w-]+(?:\.[\w-]+)*|pictures\/[0-9a-f-]{36}\/[0-9a-f]{32}-\d{1,5}\.(?:avif|webp|jpg))$/;

function isWebAddress(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

function hasCredentials(value: string): boolean {
  try {
    const url = new URL(value);
    return url.username !== '' || url.password !== '';
  } catch {
    return false;
  }
}

/**
 * The product as it will be stored: trimmed, checked against the rules a person can act on,
 * with its description sanitised. Every problem is reported at once, so a form can list them.
 */
export function normaliseProductInput(input: ProductInput): ProductInput {
  const name = input.name.trim();
  const thumbnailUrl = input.thumbnailUrl.trim();
  const problems: string[] = [];

  const nameLength = [...name].length;
  if (nameLength < PRODUCT_NAME_MIN_LENGTH || nameLength > PRODUCT_NAME_MAX_LENGTH) {
    problems.push(`Name must be ${PRODUCT_NAME_MIN_LENGTH} to ${PRODUCT_NAME_MAX_LENGTH} characters long`);
  }
  if (!isWebAddress(thumbnailUrl) && !SHIPPED_PICTURE.test(thumbnailUrl)) {
    problems.push('Image URL must be a web address starting with http:// or https://');
  } else if (hasCredentials(thumbnailUrl)) {
    // Every shopper receives this address: credentials in it would be published.
    problems.push('Image URL must not contain a user name or password');
  }
  // PostgreSQL cannot store a NUL in text; refused here it is a 400, not a database error.
  for (const [label, value] of [
    ['Name', input.name],
    ['Image URL', input.thumbnailUrl],
    ['Description', input.descriptionHtml],
  ] as const) {
    if (value.includes('\u0000')) problems.push(`${label} must not contain NUL characters`);
  }
  if (input.priceCents <= 0) problems.push('Price must be more than 0,00 €');
  if (input.priceCents > MAX_PRICE_CENTS) problems.push('Price must be at most 100.000.000,00 €');
  if (input.stock != null && (input.stock < 0 || input.stock > MAX_STOCK)) {
    problems.push(`Stock must be a whole number from 0 to ${MAX_STOCK}, or empty for built to order`);
  }
  const specs = input.specs === undefined ? undefined : normaliseSpecs(input.specs);
  if (specs) problems.push(...specs.problems);

  if (problems.length > 0) {
    throw badRequest(problems.length === 1 ? problems[0]! : 'Please correct the product', problems);
  }
  return {
    ...input,
    name,
    thumbnailUrl,
    descriptionHtml: sanitizeDescription(input.descriptionHtml),
    ...(specs ? { specs: specs.specs } : {}),
  };
}
