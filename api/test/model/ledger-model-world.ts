import fc from 'fast-check';
import { expect } from 'vitest';
import type { UserWithSession } from '../helpers/users.js';
import { createBody, intentIdOf, type PaymentsHarness } from '../routes/payments/payments-test-kit.js';

// What the ledger model's commands, invariants and runner share: the cards and amounts, the model
// and the real system it drives, and the harness (set by the test's beforeAll).

export const VISA = '4242424242424242';
export const DECLINED = '4000000000000002';
export const REFUND_PENDING = '4000000000007726';
export const CARDS = [VISA, VISA, DECLINED, REFUND_PENDING] as const;
export const BOAT_CENTS = 1_000_000;
export const YACHT_CENTS = 289_000_000;

export const world = {
  harness: undefined as unknown as PaymentsHarness,
  admins: [] as UserWithSession[],
  /** 5xx answers seen, reported at the end */
  failures: [] as string[],
  /** What the runs reached, printed at the end: a model that never pays or refunds proves little. */
  reached: new Map<string, number>(),
};

export interface OrderRef {
  orderId: string;
  intentId: string;
  clientSecret: string;
  shopper: number;
  product: 'boat' | 'yacht';
}

/** What the run did that the shop's books must show: bank lines and refunds sent out by bank. */
export interface Model {
  orders: OrderRef[];
  bankIn: Map<string, number>;
  bankOut: Map<string, number>;
  /** each dispute opened, with the order it was opened on (not the drawn index: orders are added later) */
  disputes: { id: string; orderId: string; closed: boolean }[];
  /** world.harness.captured index where this run starts */
  firstEvent: number;
  log: string[];
}

export interface Real {
  shoppers: UserWithSession[];
  boat: string;
  yacht: string;
  address: string;
  serial: number;
}

export function expectNo5xx(what: string, status: number, body?: string) {
  if (status >= 500 && status !== 502) world.failures.push(`${what} answered ${status}: ${body ?? ''}`);
  expect(status, `${what}: ${body ?? ''}`).toBeLessThan(status === 502 ? 503 : 500);
}

export interface InjectOptions {
  method: 'POST' | 'GET';
  url: string;
  headers: Record<string, string>;
  payload?: object;
  remoteAddress?: string;
}

export async function inject(what: string, options: InjectOptions) {
  const response = await world.harness.app.inject(options);
  // 502 is the documented "the payment service did not answer" (an injected timeout).
  expectNo5xx(what, response.statusCode, response.body);
  return response;
}

export const admin = (i: number) => world.admins[i % world.admins.length]!;

export async function bankReference(orderId: string) {
  const row = await world.harness.app.db.selectFrom('orders').select('bank_reference').where('id', '=', orderId).executeTakeFirstOrThrow();
  return row.bank_reference;
}

export type Cmd = fc.AsyncCommand<Model, Real>;

export function command(name: string, check: (m: Model) => boolean, run: (m: Model, r: Real) => Promise<void>): Cmd {
  return {
    check,
    async run(m, r) {
      m.log.push(name);
      await run(m, r);
    },
    toString: () => name,
  };
}

export const hasOrder = (m: Model) => m.orders.length > 0;
export const pick = <T>(items: T[], i: number) => items[i % items.length]!;

export async function openOrder(m: Model, r: Real, shopper: number, product: 'boat' | 'yacht') {
  const productId = product === 'boat' ? r.boat : r.yacht;
  const response = await inject('create', {
    method: 'POST',
    url: '/api/payments/create',
    headers: r.shoppers[shopper]!.headers,
    remoteAddress: r.address,
    payload: {
      ...createBody([{ productId, quantity: 1 }], product === 'boat' ? BOAT_CENTS : YACHT_CENTS),
      ...(product === 'yacht' ? { mode: 'deposit' } : {}),
    },
  });
  if (response.statusCode !== 201) return;
  const body = response.json<{ orderId: string; clientSecret: string }>();
  if (m.orders.some((o) => o.orderId === body.orderId)) return;
  m.orders.push({ ...body, intentId: intentIdOf(body.clientSecret), shopper, product });
}
