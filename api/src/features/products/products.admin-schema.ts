import { Type, type Static } from '@sinclair/typebox';
import { badRequest } from '../../lib/errors.js';
import { CategorySchema } from './products.schema.js';
import { sanitizeDescription } from './sanitize-description.js';

// Mirrors ProductInput in packages/state/src/contract.ts.

export const NAME_MIN_LENGTH = 3;
export const NAME_MAX_LENGTH = 120;
/** One hundred million euros: far above any boat, far below where cents stop being exact in a double. */
export const MAX_PRICE_CENTS = 10_000_000_000;
export const MAX_STOCK = 100_000;

export const ProductInputSchema = Type.Object(
  {
    name: Type.String({ maxLength: 1000, description: `${NAME_MIN_LENGTH} to ${NAME_MAX_LENGTH} characters once trimmed` }),
    thumbnailUrl: Type.String({
      maxLength: 2048,
      description: 'an http(s) address, or a shipped picture under /api/images/',
    }),
    priceCents: Type.Integer({ description: `integer euro cents, 1 to ${MAX_PRICE_CENTS}` }),
    descriptionHtml: Type.String({ maxLength: 100_000, description: 'HTML; sanitised on write with an allowlist' }),
    category: CategorySchema,
    // One type list, not anyOf: with Fastify's type coercion, anyOf's integer branch would turn null into 0.
    stock: Type.Optional(
      Type.Unsafe<number | null>({
        type: ['integer', 'null'],
        description:
          `units a shopper can buy now, 0 to ${MAX_STOCK}; null = built to order (unlimited). ` +
          'Units held by open orders come on top. Left out: null on create, unchanged on update.',
      }),
    ),
  },
  { title: 'ProductInput', additionalProperties: false },
);
export type ProductInput = Static<typeof ProductInputSchema>;

const SHIPPED_PICTURE = /^\/api\/images\/[\w-]+(?:\.[\w-]+)*$/;

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
  if (nameLength < NAME_MIN_LENGTH || nameLength > NAME_MAX_LENGTH) {
    problems.push(`Name must be ${NAME_MIN_LENGTH} to ${NAME_MAX_LENGTH} characters long`);
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

  if (problems.length > 0) {
    throw badRequest(problems.length === 1 ? problems[0]! : 'Please correct the product', problems);
  }
  return { ...input, name, thumbnailUrl, descriptionHtml: sanitizeDescription(input.descriptionHtml) };
}
