// Delivers events to the webhook endpoint the way Stripe does: a JSON POST whose
// `Stripe-Signature` header is `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`, so the
// API verifies it with the real `stripe.webhooks.constructEvent`. Stripe retries undelivered
// events with backoff; so does this, on a much shorter schedule suited to local work.

import { createHmac } from 'node:crypto';

export interface StripeEvent {
  id: string;
  object: 'event';
  api_version: string;
  created: number;
  data: { object: object };
  livemode: false;
  pending_webhooks: number;
  request: { id: string | null; idempotency_key: string | null };
  type: string;
}

export interface WebhookSenderOptions {
  url: string;
  secret: string;
  /** Waits before each retry; the number of entries is the number of retries. */
  retryDelaysMs: number[];
  log: (message: string) => void;
}

export function signPayload(payload: string, secret: string, timestamp: number): string {
  const signature = createHmac('sha256', secret).update(`${timestamp}.${payload}`, 'utf8').digest('hex');
  return `t=${timestamp},v1=${signature}`;
}

export class WebhookSender {
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly inFlight = new Set<AbortController>();
  /** every delivery attempt not yet answered (or failed), retries included once they start */
  private readonly attempts = new Set<Promise<void>>();
  private closed = false;

  constructor(private readonly options: WebhookSenderOptions) {}

  send(event: StripeEvent): void {
    this.track(this.attempt(event, 0));
  }

  /**
   * Resolves once no delivery attempt is under way, including those an answered delivery set off
   * (the endpoint's handler calling the API, which sends further events before it answers).
   * Retries still waiting on their timer are not waited for.
   */
  async settled(): Promise<void> {
    while (this.attempts.size > 0) await Promise.allSettled([...this.attempts]);
  }

  private track(attempt: Promise<void>): void {
    this.attempts.add(attempt);
    void attempt.finally(() => this.attempts.delete(attempt));
  }

  private async attempt(event: StripeEvent, attemptIndex: number): Promise<void> {
    if (this.closed) return;
    const payload = JSON.stringify(event, null, 2);
    const timestamp = Math.floor(Date.now() / 1000);
    const controller = new AbortController();
    const timeout = setTimeout(() => controller.abort(), 10_000);
    this.inFlight.add(controller);
    let failure: string;
    try {
      const response = await fetch(this.options.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json; charset=utf-8',
          'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
          'stripe-signature': signPayload(payload, this.options.secret, timestamp),
        },
        body: payload,
        signal: controller.signal,
      });
      // Drain the body so the connection can be reused or closed.
      await response.arrayBuffer();
      if (response.ok) return;
      failure = `HTTP ${response.status}`;
    } catch (error) {
      failure = error instanceof Error ? error.message : String(error);
    } finally {
      clearTimeout(timeout);
      this.inFlight.delete(controller);
    }
    if (this.closed) return;

    const delay = this.options.retryDelaysMs[attemptIndex];
    if (delay === undefined) {
      this.options.log(`webhook ${event.type} ${event.id} to ${this.options.url} failed (${failure}); giving up`);
      return;
    }
    this.options.log(`webhook ${event.type} ${event.id} to ${this.options.url} failed (${failure}); retrying in ${delay} ms`);
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.track(this.attempt(event, attemptIndex + 1));
    }, delay);
    this.timers.add(timer);
  }

  close(): void {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    for (const controller of this.inFlight) controller.abort();
    this.inFlight.clear();
  }
}
