// The soak's closing checks, read from the database, the payment stand-in and the mailbox once the
// load has stopped: money, stock, e-mails and jobs as the run left them.
import pg from 'pg';
import type { SoakWorld } from './users.js';

export interface BookCheck {
  name: string;
  ok: boolean;
  detail: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface PaymentRow {
  provider_reference: string;
  payment_status: string;
  order_id: string;
  order_status: string;
  total_cents: string;
  deposit_cents: string | null;
  paid_cents: string;
}

/** Card payments of the run's accounts, with their order and what the order has received. */
async function cardPayments(db: pg.Client, emailPattern: string): Promise<PaymentRow[]> {
  const { rows } = await db.query<PaymentRow>(
    `select p.provider_reference, p.status as payment_status, o.id as order_id, o.status as order_status,
            o.total_cents, o.deposit_cents,
            (select coalesce(sum(x.amount_cents), 0) from order_payments x where x.order_id = o.id and x.status = 'succeeded') as paid_cents
       from order_payments p join orders o on o.id = p.order_id join users u on u.id = o.user_id
      where u.email like $1 and p.method = 'card' and p.provider_reference is not null`,
    [emailPattern],
  );
  return rows;
}

async function intentStatus(world: SoakWorld, intentId: string): Promise<string> {
  const response = await fetch(`${world.stripeUrl}/v1/payment_intents/${intentId}`, { headers: { authorization: 'Bearer sk_test_dev' } });
  return ((await response.json()) as { status?: string }).status ?? `HTTP ${response.status}`;
}

/** Every intent the provider took money for has exactly one order, paid (or reserved: deposit only), and the reverse. */
export async function checkPayments(db: pg.Client, world: SoakWorld, emailPattern: string): Promise<BookCheck[]> {
  // Webhooks still on their way (the stand-in retries a delivery a replica dropped): give them time.
  let rows: PaymentRow[] = [];
  let halfDone: string[] = [];
  for (let tries = 0; tries < 60; tries++) {
    rows = await cardPayments(db, emailPattern);
    const byIntent = new Map(rows.map((row) => [row.provider_reference, row]));
    halfDone = [];
    for (const [intentId, { orderId, mode }] of world.paidIntents) {
      const row = byIntent.get(intentId);
      const wanted = mode === 'deposit' && !world.settled.has(orderId) ? 'reserved' : 'paid';
      if (!row || row.order_id !== orderId) halfDone.push(`${intentId}: no order of its own`);
      else if (row.payment_status !== 'succeeded' || row.order_status !== wanted)
        halfDone.push(`${intentId}: payment ${row.payment_status}, order ${row.order_status} (expected ${wanted})`);
    }
    if (halfDone.length === 0) break;
    await sleep(1000);
  }
  const perIntent = new Map<string, number>();
  for (const row of rows) perIntent.set(row.provider_reference, (perIntent.get(row.provider_reference) ?? 0) + 1);
  const doubled = [...perIntent].filter(([, n]) => n > 1);

  // The other way round: a payment the database calls succeeded is one the provider took; one it
  // does not is not (a half-done order would differ here).
  const disagreements: string[] = [];
  for (const row of rows) {
    const provider = await intentStatus(world, row.provider_reference);
    if ((provider === 'succeeded') !== (row.payment_status === 'succeeded'))
      disagreements.push(`${row.provider_reference}: provider ${provider}, shop ${row.payment_status} (order ${row.order_status})`);
  }
  const wrongSums = rows.filter(
    (row) =>
      (row.order_status === 'paid' && row.paid_cents !== row.total_cents) ||
      (row.order_status === 'reserved' && row.paid_cents !== row.deposit_cents),
  );
  return [
    {
      name: 'every paid intent has exactly one paid order',
      ok: halfDone.length === 0 && doubled.length === 0,
      detail: `${world.paidIntents.size} intents paid by the run; ${halfDone.length} without their order in the expected state${
        halfDone.length ? `: ${halfDone.slice(0, 5).join('; ')}` : ''
      }; ${doubled.length} intents on more than one order`,
    },
    {
      name: "the shop's card payments agree with the provider",
      ok: disagreements.length === 0,
      detail: `${rows.length} card payments asked at the provider; ${disagreements.length} disagree${disagreements.length ? `: ${disagreements.slice(0, 5).join('; ')}` : ''}`,
    },
    {
      name: 'paid orders received their total, reserved orders their deposit',
      ok: wrongSums.length === 0,
      detail: `${wrongSums.length} orders off${
        wrongSums.length
          ? `: ${wrongSums
              .slice(0, 5)
              .map((r) => `${r.order_id} ${r.order_status} ${r.paid_cents}/${r.total_cents}`)
              .join('; ')}`
          : ''
      }`,
    },
  ];
}

/** No boat sold twice: stock never negative nor over-held, each one-off boat in at most one live order. */
export async function checkStock(db: pg.Client, world: SoakWorld): Promise<BookCheck[]> {
  const { rows: broken } = await db.query<{ id: string; stock_on_hand: number; stock_reserved: number }>(
    `select id, stock_on_hand, stock_reserved from products
      where stock_on_hand < 0 or stock_reserved < 0 or stock_reserved > coalesce(stock_on_hand, stock_reserved)`,
  );
  const ids = world.oneOffs.map((boat) => boat.id);
  const { rows: sold } = await db.query<{ product_id: string; orders: string }>(
    `select i.product_id, count(distinct o.id) as orders from order_items i join orders o on o.id = i.order_id
      where i.product_id = any($1::uuid[]) and o.status in ('reserved', 'paid', 'shipped', 'delivered')
      group by i.product_id`,
    [ids],
  );
  const twice = sold.filter((row) => Number(row.orders) > 1);
  return [
    {
      name: 'no boat sold twice',
      ok: broken.length === 0 && twice.length === 0,
      detail: `${world.oneOffs.length} one-off boats raced for, ${sold.length} sold, ${twice.length} sold more than once; ${broken.length} products with negative or over-held stock`,
    },
  ];
}

/** Each of the run's order e-mails was sent, and reached the mailbox once (by its Message-ID). */
/** How long before a SIGKILL a copy may have left the killed replica (its Date header): building a
 * mail with its PDF takes seconds on a loaded machine. */
export const SENT_BEFORE_KILL_MS = 20_000;

/**
 * Delivery is at-least-once by design (outbox-delivery.ts): a replica killed after the SMTP server
 * accepted a message and before it marked the row sent leaves it to the retry, which sends it
 * again with the same Message-ID (mail clients fold the copy). A second copy is that case only
 * when there are exactly two, the first dated within SENT_BEFORE_KILL_MS before an API replica's
 * SIGKILL and the second after it; any other repeat is a real double send.
 */
export function classifyRepeats(
  copies: ReadonlyMap<string, readonly number[]>,
  kills: readonly number[],
): { afterKill: string[]; doubled: string[] } {
  const afterKill: string[] = [];
  const doubled: string[] = [];
  for (const [id, dates] of copies) {
    if (dates.length < 2) continue;
    const [first, second] = [...dates].sort((a, b) => a - b) as [number, number];
    // One second of slack: the Date header has whole seconds.
    const explained =
      dates.length === 2 && kills.some((kill) => first >= kill - SENT_BEFORE_KILL_MS && first <= kill + 1000 && second > kill);
    (explained ? afterKill : doubled).push(id);
  }
  return { afterKill, doubled };
}

export async function checkMails(db: pg.Client, world: SoakWorld, emailPattern: string, kills: readonly number[]): Promise<BookCheck[]> {
  const query = `select x.id, x.sent_at from outbox x join orders o on o.id = (x.payload->>'orderId')::uuid join users u on u.id = o.user_id
                  where x.kind = 'order_mail' and u.email like $1`;
  let rows: { id: string; sent_at: Date | null }[] = [];
  // A delivery held by a killed replica expires after 90 s, maintenance looks every 30 s, the retry waits 30 s.
  for (let tries = 0; tries < 180; tries++) {
    rows = (await db.query<{ id: string; sent_at: Date | null }>(query, [emailPattern])).rows;
    if (rows.every((row) => row.sent_at)) break;
    await sleep(1000);
  }
  const unsent = rows.filter((row) => !row.sent_at);
  const answer = (await fetch(`${world.mailboxUrl}/api/messages`).then((r) => r.json())) as {
    messages: { messageId: string | null; date: string }[];
  };
  const copies = new Map<string, number[]>();
  for (const message of answer.messages)
    if (message.messageId) copies.set(message.messageId, [...(copies.get(message.messageId) ?? []), Date.parse(message.date)]);
  const missing = rows.filter((row) => row.sent_at && !copies.has(`<outbox-${row.id}@boatshop>`));
  const ours = new Map(rows.map((row) => [`<outbox-${row.id}@boatshop>`, copies.get(`<outbox-${row.id}@boatshop>`) ?? []]));
  const { afterKill, doubled } = classifyRepeats(ours, kills);
  return [
    {
      name: 'each order e-mail sent once (a copy only after its sender was killed mid-send)',
      ok: unsent.length === 0 && missing.length === 0 && doubled.length === 0,
      detail: `${rows.length} order e-mails; ${unsent.length} unsent 180 s after the load, ${missing.length} marked sent but not in the mailbox, ${doubled.length} delivered more than once, ${afterKill.length} sent again (same Message-ID) after the replica sending it was killed before marking it sent${afterKill.length ? ` (${afterKill.join(', ')})` : ''}`,
    },
  ];
}

/**
 * pg-boss: no job of the run failed for good; none waits unclaimed, or stays active past its
 * expiry (when pg-boss hands a dead replica's job out again) plus its maintenance; no outbox row in two jobs.
 */
export async function checkJobs(db: pg.Client, since: Date): Promise<BookCheck[]> {
  const { rows: states } = await db.query<{ name: string; state: string; jobs: string; retried: string }>(
    `select name, state, count(*) as jobs, count(*) filter (where retry_count > 0) as retried
       from pgboss.job where created_on >= $1 group by 1, 2 order by 1, 2`,
    [since],
  );
  const { rows: stuck } = await db.query<{ name: string; state: string; id: string }>(
    `select name, state, id from pgboss.job
      where created_on >= $1 and ((state in ('created', 'retry') and start_after < now() - interval '2 minutes')
                                  or (state = 'active' and started_on + expire_in < now() - interval '2 minutes'))`,
    [since],
  );
  const failed = states.filter((row) => row.state === 'failed');
  // The outbox hands each row to the queue under the row's id: a row in two jobs would be sent twice.
  const { rows: doubled } = await db.query<{ outbox_id: string }>(
    `select data->>'outboxId' as outbox_id from pgboss.job where name = 'outbox.deliver' and created_on >= $1
      group by 1 having count(*) > 1`,
    [since],
  );
  const summary = states.map((row) => `${row.name} ${row.state} ${row.jobs}${Number(row.retried) ? ` (${row.retried} retried)` : ''}`);
  return [
    {
      name: 'no job lost or run twice',
      ok: failed.length === 0 && stuck.length === 0 && doubled.length === 0,
      detail: `${summary.join(', ')}; ${stuck.length} waiting or running too long${
        stuck.length
          ? ` (${stuck
              .slice(0, 3)
              .map((j) => `${j.name} ${j.state}`)
              .join(', ')})`
          : ''
      }; ${doubled.length} outbox rows in more than one job`,
    },
  ];
}
