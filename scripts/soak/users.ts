// The soak's virtual users: what a visitor, a buyer, a buyer racing others for a one-off boat, a
// buyer reserving with a deposit and the shop's accountant do, through the one URL.
import { SoakClient, SoakRequestError } from './client.js';
import type { SoakStats } from './stats.js';

export interface Product {
  id: string;
  name: string;
  priceCents: number;
  thumbnailUrl?: string;
  stock?: number | null;
}

/** What the run shares between its users and hands to the book checks. */
export interface SoakWorld {
  baseUrl: string;
  stripeUrl: string;
  mailboxUrl: string;
  runId: string;
  stats: SoakStats;
  /** built-to-order boats a card pays in full, and boats above the card limit (deposit) */
  cardBoats: Product[];
  depositBoats: Product[];
  /** the run's one-off boats (stock 1), raced for in order */
  oneOffs: Product[];
  oneOffCursor: number;
  /** intents the payment stand-in said succeeded, with their order */
  paidIntents: Map<string, { orderId: string; mode: 'full' | 'deposit' }>;
  /** reserved orders waiting for the accountant to record their balance */
  transfers: { orderId: string; reference: string; amountCents: number }[];
  /** orders whose balance the accountant recorded */
  settled: Set<string>;
  /** one-off boats each buyer was told it holds (201 on create) */
  wonOneOffs: Map<string, string>;
  stopAt: number;
  maxRequests: number;
  problems: string[];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const think = () => sleep(150 + Math.random() * 500);
const pick = <T>(list: readonly T[]): T => list[Math.floor(Math.random() * list.length)]!;
const SEARCH_WORDS = ['sail', 'yacht', 'cruiser', 'teak', 'cabin', 'racing', 'family', 'motor'];
export const ADDRESS = { line1: 'Havenweg 1', city: 'Amsterdam', state: 'Noord-Holland', postal_code: '1011 AA', country: 'NL' };
export const PASSWORD = 'soak-ahoy-2026';

export const running = (world: SoakWorld) => Date.now() < world.stopAt && world.stats.requests < world.maxRequests;

/** An anonymous visitor: pages, the catalogue, search, a product. */
export async function browse(client: SoakClient, world: SoakWorld): Promise<void> {
  await client.call({ route: 'GET / (page)', path: '/' });
  await client.call({ route: 'GET /remotes.json', path: '/remotes.json' });
  const page = await client.call<{ data: Product[] }>({ route: 'GET /api/products', path: '/api/products?limit=12' });
  await think();
  await client.call({ route: 'GET /api/products/search', path: `/api/products/search?q=${pick(SEARCH_WORDS)}` });
  const product = pick(page.body.data.length > 0 ? page.body.data : world.cardBoats);
  await client.call({ route: 'GET /api/products/:id', path: `/api/products/${product.id}` });
  await client.call({ route: 'GET /product/:id (page)', path: `/product/${product.id}` });
  await client.call({ route: 'GET /api/auth/session', path: '/api/auth/session' });
}

/** A new account, its e-mail address confirmed through the link the shop mailed. */
export async function signUp(client: SoakClient, world: SoakWorld, email: string): Promise<void> {
  await client.call({ route: 'GET /api/auth/session', path: '/api/auth/session' });
  await client.call({
    route: 'POST /api/auth/register',
    path: '/api/auth/register',
    body: { displayName: 'Soak Sailor', email, password: PASSWORD, confirmPassword: PASSWORD },
    // A retry after a lost answer finds the account made (409): the address is this user's alone.
    expect: [201, 409],
    retry: true,
  });
  await signIn(client, email, PASSWORD);
  const token = await verificationToken(world, email);
  await client.call({ route: 'POST /api/auth/verify-email', path: '/api/auth/verify-email', body: { token }, expect: [204], retry: true });
}

async function verificationToken(world: SoakWorld, email: string): Promise<string> {
  for (let tries = 0; tries < 120; tries++) {
    const answer = await fetch(`${world.mailboxUrl}/api/messages?to=${encodeURIComponent(email)}`).then(
      (r) => r.json() as Promise<{ messages: { text: string }[] }>,
    );
    const token = answer.messages.map((m) => m.text.match(/verify-email\?token=([^\s&"]+)/)?.[1]).find(Boolean);
    if (token) return decodeURIComponent(token);
    await sleep(500);
  }
  throw new Error(`no verification e-mail reached ${email} within 60 s`);
}

export async function signIn(client: SoakClient, email: string, password: string): Promise<void> {
  await client.call({ route: 'GET /api/auth/session', path: '/api/auth/session' });
  await client.call({ route: 'POST /api/auth/login', path: '/api/auth/login', body: { email, password }, retry: true });
}

/** What Stripe.js does for a card form: confirms the intent at the provider with 4242…. */
async function payByCard(world: SoakWorld, clientSecret: string): Promise<string> {
  const intentId = clientSecret.slice(0, clientSecret.indexOf('_secret_'));
  const form = new URLSearchParams({
    key: 'pk_test_dev',
    client_secret: clientSecret,
    'payment_method_data[type]': 'card',
    'payment_method_data[card][number]': '4242424242424242',
    'payment_method_data[card][exp_month]': '12',
    'payment_method_data[card][exp_year]': '2034',
    'payment_method_data[card][cvc]': '123',
    'payment_method_data[billing_details][name]': 'Soak Sailor',
  });
  // Stripe.js sends an idempotency key too: the same confirmation twice charges once.
  const headers = { 'content-type': 'application/x-www-form-urlencoded', 'idempotency-key': `confirm-${intentId}` };
  const started = performance.now();
  const response = await fetch(`${world.stripeUrl}/v1/payment_intents/${intentId}/confirm`, { method: 'POST', headers, body: form });
  const body = (await response.json()) as { status?: string; error?: { message?: string } };
  world.stats.record({
    route: 'POST stand-in /v1/payment_intents/:id/confirm',
    status: response.status,
    outcome: response.ok ? 'ok' : 'unexpected-4xx',
    ms: performance.now() - started,
    at: Date.now(),
  });
  if (!response.ok || body.status !== 'succeeded')
    throw new Error(`card confirmation: ${response.status} ${body.error?.message ?? body.status}`);
  return intentId;
}

interface Created {
  orderId: string;
  clientSecret: string;
  totalCents: number;
  amountCents: number;
}

/** Waits until the order reaches one of the statuses (the webhook, or the confirm call, applied the payment). */
async function waitForStatus(client: SoakClient, world: SoakWorld, orderId: string, statuses: string[]): Promise<string> {
  let status = '';
  for (let tries = 0; tries < 60; tries++) {
    const order = await client.call<{ status: string }>({ route: 'GET /api/orders/:id', path: `/api/orders/${orderId}` });
    status = order.body.status;
    if (statuses.includes(status)) return status;
    await sleep(500);
  }
  world.problems.push(`order ${orderId} still ${status} 30 s after its card payment (expected ${statuses.join(' or ')})`);
  return status;
}

/**
 * Cart → checkout → card. Create is idempotent per cart (the same cart finds its open order and
 * the same intent), so it is retried; the 409 of a boat another buyer holds ends the attempt.
 */
export async function checkout(
  client: SoakClient,
  world: SoakWorld,
  product: Product,
  mode: 'full' | 'deposit',
  viaConfirm: boolean,
): Promise<Created | null> {
  const items = [{ productId: product.id, quantity: 1 }];
  // The quote for the country the order ships to: what a consumer pays depends on it (VAT).
  const quoteBody = { items, shippingCountry: ADDRESS.country };
  await client.call({ route: 'POST /api/payments/quote', path: '/api/payments/quote', body: quoteBody, retry: true });
  const named = { name: 'Soak Sailor', address: ADDRESS };
  const created = await client.call<Created & { error?: { code: string } }>({
    route: 'POST /api/payments/create',
    path: '/api/payments/create',
    body: { items, mode, expectedTotalCents: product.priceCents, shipping: named, billing: named },
    expect: [201, 409],
    retry: true,
  });
  if (created.status === 409) return null;
  const intentId = await payByCard(world, created.body.clientSecret);
  world.paidIntents.set(intentId, { orderId: created.body.orderId, mode });
  // Half the buyers come back to the shop's page (confirm); the others leave it to the webhook.
  if (viaConfirm) {
    await client.call({
      route: 'POST /api/payments/confirm',
      path: '/api/payments/confirm',
      body: { orderId: created.body.orderId },
      retry: true,
    });
  }
  await waitForStatus(client, world, created.body.orderId, mode === 'full' ? ['paid'] : ['reserved']);
  return created.body;
}

/**
 * A buyer's round (browse, quote, create, pay, and every third round sign out and in) takes at
 * least this long: one address then stays under the shop's per-address limits (sign-in 10 a
 * minute, checkout create 30, quote 60), as a person at a keyboard does. Faster, the soak
 * measured its own 429s instead of the shop.
 */
export const MIN_BUYER_ROUND_MS = 3_000;

export async function buyer(client: SoakClient, world: SoakWorld, email: string, kind: 'card' | 'race' | 'deposit'): Promise<void> {
  for (;;) {
    try {
      await signUp(client, world, email);
      break;
    } catch (error) {
      if (!(error instanceof SoakRequestError) || !running(world)) throw error;
      await think();
    }
  }
  let round = 0;
  let signedIn = true;
  while (running(world)) {
    round++;
    const roundStarted = Date.now();
    try {
      // A sign-in that failed (its retries spent) is done again first: buying signed out only earns 401s.
      if (!signedIn) {
        await signIn(client, email, PASSWORD);
        signedIn = true;
      }
      await client.call({ route: 'GET /api/products', path: '/api/products?limit=12' });
      if (kind === 'card') {
        await checkout(client, world, pick(world.cardBoats), 'full', round % 2 === 0);
      } else if (kind === 'race') {
        const boat = world.oneOffs[world.oneOffCursor];
        if (!boat) {
          await checkout(client, world, pick(world.cardBoats), 'full', round % 2 === 0);
        } else {
          const created = await checkout(client, world, boat, 'full', round % 2 === 0);
          if (created) world.wonOneOffs.set(boat.id, created.orderId);
          if (world.oneOffs[world.oneOffCursor] === boat) world.oneOffCursor++;
        }
      } else {
        const created = await checkout(client, world, pick(world.depositBoats), 'deposit', round % 2 === 0);
        if (created) {
          const order = await client.call<{ balance: { amountCents: number; reference: string } | null }>({
            route: 'GET /api/orders/:id',
            path: `/api/orders/${created.orderId}`,
          });
          if (order.body.balance) world.transfers.push({ orderId: created.orderId, ...order.body.balance });
        }
      }
      if (round % 3 === 0) {
        signedIn = false;
        await client.call({ route: 'POST /api/auth/logout', path: '/api/auth/logout', body: {}, expect: [204], retry: true });
        await signIn(client, email, PASSWORD);
        signedIn = true;
      }
    } catch (error) {
      if (!(error instanceof SoakRequestError)) world.problems.push(`${email}: ${error instanceof Error ? error.message : String(error)}`);
    }
    await sleep(Math.max(0, roundStarted + MIN_BUYER_ROUND_MS - Date.now()));
    await think();
  }
}

/** The accountant: records each reserved order's balance as the bank statement shows it. */
export async function accountant(client: SoakClient, world: SoakWorld, email: string, password: string): Promise<void> {
  for (;;) {
    try {
      await signIn(client, email, password);
      break;
    } catch (error) {
      if (!(error instanceof SoakRequestError) || !running(world)) throw error;
      await think();
    }
  }
  while (running(world) || world.transfers.length > 0) {
    const transfer = world.transfers.shift();
    try {
      if (!transfer) {
        await client.call({ route: 'GET /api/admin/orders', path: '/api/admin/orders?limit=20' });
        await sleep(1000);
        continue;
      }
      // The bank's own line reference makes the record idempotent: a retry records once.
      await client.call({
        route: 'POST /api/admin/bank-transfers',
        path: '/api/admin/bank-transfers',
        body: {
          reference: transfer.reference,
          amountCents: transfer.amountCents,
          receivedOn: new Date().toISOString().slice(0, 10),
          bankReference: `SOAK-${transfer.orderId.slice(0, 8)}`,
        },
        retry: true,
      });
      world.settled.add(transfer.orderId);
    } catch (error) {
      if (!(error instanceof SoakRequestError)) throw error;
      if (transfer) world.transfers.push(transfer);
      await sleep(1000);
    }
  }
}

export async function visitor(client: SoakClient, world: SoakWorld): Promise<void> {
  while (running(world)) {
    await browse(client, world).catch((error: unknown) => {
      if (!(error instanceof SoakRequestError)) world.problems.push(`visitor: ${error instanceof Error ? error.message : String(error)}`);
    });
    await think();
  }
}
