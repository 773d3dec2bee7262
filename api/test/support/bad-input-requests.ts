// What the bad-input test (test/routes/bad-input.property.test.ts) sends: requests generated from
// each route's own schemas and broken on purpose (wrong types, missing fields, nulls, 100 kB
// strings, deep JSON, NUL bytes, non-UUID ids, absurd numbers, wrong content types).
import fc from 'fast-check';
import type { HTTPMethods } from 'fastify';

export type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  format?: string;
  pattern?: string;
  minimum?: number;
  minLength?: number;
  minItems?: number;
};

export interface Endpoint {
  method: HTTPMethods;
  url: string;
  schema: { body?: JsonSchema; querystring?: JsonSchema; params?: JsonSchema; response?: Record<string, unknown> };
}

export type Role = 'visitor' | 'shopper' | 'admin';

export const HUGE = 'x'.repeat(100_000);
export const UUID = '3f1c2b9a-6d4e-4f10-9a2b-5c6d7e8f9a0b';

export function deepJson(depth: number): unknown {
  let value: unknown = 'bottom';
  for (let i = 0; i < depth; i += 1) value = i % 2 === 0 ? { a: value } : [value];
  return value;
}

/** Values no field expects. */
export const nastyValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(
    null,
    true,
    false,
    0,
    -1,
    1e308,
    -1e308,
    2 ** 53 + 1,
    Number.MAX_SAFE_INTEGER,
    0.5,
    '',
    ' ',
    HUGE,
    'nul\u0000byte',
    '\u0000',
    'not-a-uuid',
    '00000000-0000-0000-0000-000000000000',
    UUID.toUpperCase(),
    '9'.repeat(400),
    '-99999999999999999999',
    '1e308',
    'NaN',
    'Infinity',
    '-Infinity',
    '+Infinity',
    '1e400',
    '-1e400',
    '2024-13-45T99:99:99Z',
    '+275760-09-13T00:00:00.000Z',
    "'; drop table products; --",
    '<script>alert(1)</script>',
    '\ud800',
    '../../etc/passwd',
    [],
    {},
    [null],
    { $gt: '' },
    { __proto__: { admin: true } },
    deepJson(64),
  ),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.integer(),
  fc.double(),
  fc.array(fc.oneof(fc.string({ maxLength: 5 }), fc.integer(), fc.constant(null)), { maxLength: 4 }),
  fc.dictionary(fc.string({ maxLength: 6 }), fc.oneof(fc.string({ maxLength: 5 }), fc.integer()), { maxKeys: 3 }),
);

/** Wrong values of the right type: they pass the schema and reach the handler and the database. */
export const nastyString = fc.oneof(
  fc.constantFrom(
    'nul\u0000byte',
    'Sturdy\u0000sloop',
    HUGE,
    HUGE.slice(0, 999),
    '   ',
    '\ud800\udc00\ud83d',
    "O'Brien; drop table users; --",
    '<img src=x onerror=alert(1)>',
    'someone@example.test\u0000',
    'javascript:alert(1)',
    'NL\u0000',
  ),
  fc.string({ unit: 'grapheme', maxLength: 30 }),
);
export const nastyNumber = fc.constantFrom(0, -1, 2 ** 31, 2 ** 53 - 1, 2 ** 63, 1e15, 9_999_999_999_999, -2_147_483_649, 0.1);

/** Ids of rows that exist (filled in beforeAll), so a well-formed id reaches the row's handler. */
export const knownIds: string[] = [];

/** Values the handlers accept for fields of these names, where the schema alone says too little. */
export const PLAUSIBLE_BY_NAME: Record<string, unknown> = {
  country: 'NL',
  postal_code: '1011 AB',
  priceCents: 2_500_000,
  quantity: 1,
  descriptionHtml: '<p>A sturdy boat.</p>',
  displayName: 'Sandy Sailor',
  name: 'Sturdy sloop',
  thumbnailUrl: '/api/images/aldren-22-daysailer.svg',
};

/** A value the schema would accept, so the broken fields around it reach the handler. */
export function plausible(schema: JsonSchema | undefined, key = ''): unknown {
  if (!schema) return 'x';
  if (schema.const !== undefined) return schema.const;
  if (schema.enum?.length) return schema.enum[0];
  const union = schema.anyOf ?? schema.oneOf;
  if (union?.length) return plausible(union.find((option) => option.type !== 'null') ?? union[0], key);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  if (key in PLAUSIBLE_BY_NAME && type !== 'object' && type !== 'array') return PLAUSIBLE_BY_NAME[key];
  switch (type) {
    case 'string':
      if (schema.format === 'email' || /email/i.test(key)) return 'someone@example.test';
      if (schema.format === 'uuid' || /id$/i.test(key) || schema.pattern?.includes('[0-9a-f')) return knownIds[0] ?? UUID;
      if (/password/i.test(key)) return 'a-long-enough-passphrase';
      return 'Plausible value'.padEnd(schema.minLength ?? 0, 'x');
    case 'integer':
    case 'number':
      return Math.max(schema.minimum ?? 1, 1);
    case 'boolean':
      return true;
    case 'array':
      return Array.from({ length: Math.max(schema.minItems ?? 0, 1) }, () => plausible(schema.items));
    case 'object':
      return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([name, child]) => [name, plausible(child, name)]));
    default:
      return 'x';
  }
}

/** Every path into a value: ['items'], ['items', 0], ['items', 0, 'productId'], … */
export function pathsOf(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (value === null || typeof value !== 'object') return [];
  const entries = Array.isArray(value) ? value.map((item, index) => [index, item] as const) : Object.entries(value);
  return entries.flatMap(([key, child]) => [[...prefix, key], ...pathsOf(child, [...prefix, key])]);
}

/** The schema's plausible value with a few fields anywhere inside dropped or replaced, maybe an extra one. */
export function brokenObject(schema: JsonSchema | undefined): fc.Arbitrary<unknown> {
  const base = plausible(schema ?? { type: 'object', properties: {} });
  const paths = pathsOf(base);
  if (paths.length === 0) return fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), nastyValue, { minKeys: 1, maxKeys: 3 });
  return fc
    .record({
      edits: fc.array(
        fc.tuple(fc.constantFrom(...paths), fc.constantFrom('drop', 'any', 'typed', 'typed'), nastyValue, nastyString, nastyNumber),
        { minLength: 1, maxLength: 3 },
      ),
      extra: fc.option(fc.tuple(fc.string({ minLength: 1, maxLength: 8 }), nastyValue), { nil: undefined }),
    })
    .map(({ edits, extra }) => {
      const value = structuredClone(base) as Record<string | number, unknown>;
      for (const [path, mode, any, string, number] of edits) {
        let parent: unknown = value;
        for (const step of path.slice(0, -1))
          parent = parent && typeof parent === 'object' ? (parent as Record<string | number, unknown>)[step] : undefined;
        if (!parent || typeof parent !== 'object') continue;
        const last = path[path.length - 1]!;
        const current = (parent as Record<string | number, unknown>)[last];
        const replacement =
          mode === 'drop'
            ? undefined
            : mode === 'typed' && typeof current === 'string'
              ? string
              : mode === 'typed' && typeof current === 'number'
                ? number
                : any;
        if (replacement === undefined) delete (parent as Record<string | number, unknown>)[last];
        else (parent as Record<string | number, unknown>)[last] = replacement;
      }
      if (extra) value[extra[0]] = extra[1];
      return value;
    });
}

export type Body =
  | { kind: 'json'; value: unknown }
  | { kind: 'raw'; contentType: string | undefined; payload: string }
  // Built when sent: a value this deep would overflow the stack of whoever prints it.
  | { kind: 'deep'; depth: number };

export function bodyFor(schema: JsonSchema | undefined): fc.Arbitrary<Body> {
  return fc.oneof(
    { weight: 6, arbitrary: brokenObject(schema).map((value): Body => ({ kind: 'json', value })) },
    { weight: 2, arbitrary: nastyValue.map((value): Body => ({ kind: 'json', value })) },
    { weight: 1, arbitrary: fc.constantFrom<Body>({ kind: 'deep', depth: 5_000 }, { kind: 'deep', depth: 100_000 }) },
    {
      weight: 2,
      arbitrary: fc
        .record({
          contentType: fc.constantFrom(
            'application/json',
            'text/plain',
            'application/x-www-form-urlencoded',
            'multipart/form-data; boundary=x',
            'application/xml',
            'application/json; charset=latin1',
            undefined,
          ),
          payload: fc.constantFrom('{"name":', 'name=boat&price=1', '<xml/>', '', 'null', '[[[[[[', '\u0000', '{"a":"\\u0000"}', HUGE),
        })
        .map((raw): Body => ({ kind: 'raw', ...raw })),
    },
  );
}

export function queryFor(schema: JsonSchema | undefined): fc.Arbitrary<Record<string, string | string[]>> {
  const names = [...Object.keys(schema?.properties ?? {}), 'unexpected'];
  return fc.dictionary(
    fc.constantFrom(...names),
    fc.oneof(
      nastyValue.map((value) => (typeof value === 'string' ? value : (JSON.stringify(value) ?? ''))),
      fc.array(fc.constantFrom('a', UUID, '', '\u0000', '-1'), { minLength: 2, maxLength: 3 }),
    ),
    { maxKeys: names.length },
  );
}

export const pathValue = () =>
  fc.oneof(
    fc.constantFrom(...knownIds),
    fc.constantFrom(
      'not-a-uuid',
      '0',
      '-1',
      '1e308',
      'Infinity',
      '00000000-0000-0000-0000-000000000000',
      UUID,
      UUID.toUpperCase(),
      '%00',
      'a%00b',
      '..%2F..%2Fetc%2Fpasswd',
      HUGE.slice(0, 8_000),
      '%F0%9F%9A%A4',
      'null',
      '%20',
    ),
    fc.string({ minLength: 1, maxLength: 30 }).map((value) => encodeURIComponent(value)),
  );

export interface Attempt {
  role: Role;
  params: string[];
  query: Record<string, string | string[]>;
  body: Body | null;
}

export function attemptFor(endpoint: Endpoint): fc.Arbitrary<Attempt> {
  const paramCount = (endpoint.url.match(/:[A-Za-z_]+|\*/g) ?? []).length;
  const hasBody = !['GET', 'HEAD', 'DELETE'].includes(endpoint.method);
  return fc.record({
    role: fc.constantFrom<Role>('visitor', 'shopper', 'admin'),
    params: fc.array(pathValue(), { minLength: paramCount, maxLength: paramCount }),
    query: queryFor(endpoint.schema.querystring),
    body: hasBody ? bodyFor(endpoint.schema.body) : fc.constant(null),
  });
}
