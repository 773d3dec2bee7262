import { FormatRegistry, Type, TypeRegistry, type Static, type TSchema } from '@sinclair/typebox';
import { isUuid } from '../constants.js';

/** The one error body of the whole API: every 4xx and 5xx answer carries it. */
export const ErrorBodySchema = Type.Object(
  {
    error: Type.Object({
      code: Type.String(),
      message: Type.String(),
      /** the problems of a form, one sentence each, for the page's error list */
      details: Type.Optional(Type.Array(Type.String())),
      /** the server's total, with PRICES_CHANGED and AMOUNT_TOO_LARGE/SMALL */
      totalCents: Type.Optional(Type.Integer()),
    }),
  },
  { title: 'Error' },
);
export type ErrorBody = Static<typeof ErrorBodySchema>;
/** The name front ends have used for it. */
export type ApiErrorBody = ErrorBody;

export const DateTime = () => Type.String({ format: 'date-time' });

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** Free text a person types: PostgreSQL's text cannot hold NUL, so it is refused as bad input (400). */
export const Text = (maxLength: number) => Type.String({ maxLength, pattern: '^[^\\u0000]*$' });

/** A day, YYYY-MM-DD. */
export const DATE_PATTERN = '^\\d{4}-\\d{2}-\\d{2}$';

/**
 * A query field the API fills in when it is left out (Fastify's Ajv `useDefaults`). The type
 * remembers it, so the typed client lets a caller leave it out while the route's handler still
 * sees a value.
 */
export type WithDefault<T extends TSchema> = T & { default: Static<T> };

export function withDefault<T extends TSchema>(schema: T, value: Static<T>): WithDefault<T> {
  return Object.assign(schema, { default: value });
}

/** `:id` of a route; checked as a UUID by the handler, so a malformed id is a 404 like an unknown one. */
export const IdParamsSchema = Type.Object({ id: Type.String() });
export type IdParams = Static<typeof IdParamsSchema>;

/** `:id` of the admin's routes: the same, with a cap on its length (400 beyond it). */
export const AdminIdParamsSchema = Type.Object({ id: Type.String({ maxLength: 100 }) });

/** A 204 answer: no body. */
export const NoContentSchema = Type.Null();

const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/i;
const DATE = new RegExp(DATE_PATTERN);

/** What `Type.Unsafe` schemas of this package say: an `enum`, or a list of JSON types. */
function checkUnsafe(schema: { enum?: unknown[]; type?: string | string[] }, value: unknown): boolean {
  if (Array.isArray(schema.enum)) return schema.enum.includes(value);
  const types = schema.type === undefined ? [] : [schema.type].flat();
  if (types.length === 0) return true;
  return types.some((type) =>
    type === 'null'
      ? value === null
      : type === 'integer'
        ? Number.isSafeInteger(value)
        : type === 'array'
          ? Array.isArray(value)
          : typeof value === type,
  );
}

/**
 * Teaches TypeBox's `Value.Check` what the schemas use beyond its built-ins: the string formats
 * (`uuid`, `date-time`, `date`), without which it refuses every value of such a field, and the
 * enums written with `Type.Unsafe` (categories, order statuses, …), on which it would throw.
 * Fastify's Ajv needs none of it. Call once before checking a value with a schema of this package.
 */
export function enableValueCheck(): void {
  if (!FormatRegistry.Has('uuid')) FormatRegistry.Set('uuid', isUuid);
  if (!FormatRegistry.Has('date-time'))
    FormatRegistry.Set('date-time', (value) => DATE_TIME.test(value) && !Number.isNaN(Date.parse(value)));
  if (!FormatRegistry.Has('date')) FormatRegistry.Set('date', (value) => DATE.test(value) && !Number.isNaN(Date.parse(value)));
  if (!TypeRegistry.Has('Unsafe')) TypeRegistry.Set('Unsafe', checkUnsafe);
}
