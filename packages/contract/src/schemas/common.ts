import { Type, type Static, type TSchema } from '@sinclair/typebox';

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
