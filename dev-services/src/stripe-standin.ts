// A local stand-in for a subset of Stripe's HTTP API v1 in test mode, faithful enough for the
// real `stripe` SDK (pointed here with `{ host, port, protocol: 'http' }`) and for a browser
// card form that talks to it the way Stripe.js talks to api.stripe.com.

import { isDeepStrictEqual } from 'node:util';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import { StripeAccount } from './stripe-account.js';
import { newRequestId, type Access, type ApiResult, type RequestContext } from './stripe-objects.js';
import { authenticationError, StripeApiError } from './stripe-errors.js';
import { decodeStripeForm, FormDecodeError, type FormObject } from './stripe-form.js';
import { WebhookSender } from './stripe-webhooks.js';
import { urlHost } from './listen.js';
import { refuseProduction } from './production-guard.js';

/** The API version the installed `stripe` SDK pins; used when a request names none. */
const DEFAULT_API_VERSION = '2026-10-28.endive';

export const STRIPE_DEFAULTS = {
  port: 4020,
  webhookUrl: 'http://127.0.0.1:4000/api/payments/webhook',
  webhookSecret: 'whsec_dev_boatshop',
} as const;

/**
 * Waits before each webhook retry when none are given: doubling from half a second to five
 * minutes, then every five minutes, about 35 minutes in all. Stripe keeps retrying for up to three
 * days; an API that is down (a restart, a database failover) still gets its events here.
 */
export const WEBHOOK_RETRY_DELAYS_MS: readonly number[] = [
  ...Array.from({ length: 10 }, (_, i) => 500 * 2 ** i),
  ...Array.from({ length: 5 }, () => 300_000),
];

export interface StripeStandinOptions {
  /** 0 picks a free port. */
  port?: number;
  host?: string;
  /** Where events are POSTed: the API's webhook route. */
  webhookUrl?: string;
  /** The endpoint's signing secret, `STRIPE_WEBHOOK_SECRET` on the API side. */
  webhookSecret?: string;
  /** Waits before each webhook retry; its length is the number of retries. */
  webhookRetryDelaysMs?: number[];
  log?: (message: string) => void;
}

export interface RunningStripeStandin {
  /** The API base, `http://host:port`; SDK requests go to `<url>/v1/...`. */
  url: string;
  /**
   * Resolves once every webhook delivery under way has been answered, and those its handling set
   * off: a test waits for the stand-in to go quiet instead of sleeping. Scheduled retries are not waited for.
   */
  webhooksSettled(): Promise<void>;
  close(): Promise<void>;
}

interface Caller {
  access: Access;
  apiKey: string;
}

interface StoredResponse {
  method: string;
  path: string;
  params: FormObject;
  requestId: string;
  result: ApiResult;
}

function maskKey(key: string): string {
  const prefix = key.match(/^[a-z]+_[a-z]+_/)?.[0] ?? '';
  return `${prefix}****${key.slice(-4)}`;
}

/** The key from `Authorization: Bearer <key>` or `Basic base64(<key>:)`, as curl sends it. */
function keyFromAuthorization(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const [scheme, value] = header.split(' ', 2);
  if (!value) return undefined;
  if (scheme?.toLowerCase() === 'bearer') return value.trim();
  if (scheme?.toLowerCase() === 'basic') return Buffer.from(value, 'base64').toString('utf8').split(':')[0];
  return undefined;
}

function authenticate(request: FastifyRequest, params: FormObject, allowPublishable: boolean): Caller {
  const fromParam = typeof params.key === 'string' ? params.key : undefined;
  delete params.key;
  const apiKey = keyFromAuthorization(request.headers.authorization) ?? fromParam;
  if (!apiKey) {
    throw authenticationError(
      "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY'). See https://stripe.com/docs/api#authentication for details, or we can help at https://support.stripe.com/.",
    );
  }
  // Any test-mode key is accepted: the stand-in has one account and no dashboard to issue keys.
  if (/^sk_test_\w+$/.test(apiKey)) return { access: 'secret', apiKey };
  if (/^pk_test_\w+$/.test(apiKey)) {
    if (!allowPublishable) {
      throw authenticationError(
        'This API call cannot be made with a publishable API key. Please use a secret API key. You can find a list of your API keys at https://dashboard.stripe.com/account/apikeys.',
      );
    }
    return { access: 'publishable', apiKey };
  }
  throw authenticationError(`Invalid API Key provided: ${maskKey(apiKey)}`);
}

function readParams(request: FastifyRequest): FormObject {
  const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?') + 1) : '';
  if (request.method !== 'POST') return decodeStripeForm(query);
  const contentType = request.headers['content-type'] ?? '';
  const body = typeof request.body === 'string' ? request.body : '';
  if (body !== '' && !contentType.startsWith('application/x-www-form-urlencoded')) {
    throw new StripeApiError(400, {
      type: 'invalid_request_error',
      message: 'Invalid request: Stripe API v1 bodies must be application/x-www-form-urlencoded.',
    });
  }
  return decodeStripeForm(body);
}

export async function startStripeStandin(options: StripeStandinOptions = {}): Promise<RunningStripeStandin> {
  refuseProduction('The Stripe stand-in');
  const log = options.log ?? ((message: string) => console.warn(`[stripe stand-in] ${message}`));
  const webhooks = new WebhookSender({
    url: options.webhookUrl ?? STRIPE_DEFAULTS.webhookUrl,
    secret: options.webhookSecret ?? STRIPE_DEFAULTS.webhookSecret,
    retryDelaysMs: options.webhookRetryDelaysMs ?? [...WEBHOOK_RETRY_DELAYS_MS],
    log,
  });
  const account = new StripeAccount({ onEvent: (event) => webhooks.send(event) });
  const idempotentResponses = new Map<string, StoredResponse>();
  /** path → how many more answers to drop (see /_faults/drop-response) */
  const droppedResponses = new Map<string, number>();
  /** Whether this answer to `path` is to be dropped (one fewer to drop afterwards). */
  function dropAnswer(path: string): boolean {
    const drops = droppedResponses.get(path) ?? 0;
    if (drops <= 0) return false;
    droppedResponses.set(path, drops - 1);
    return true;
  }
  /** The connection cut before any answer, as a timeout looks to the caller. */
  function cutOff(request: FastifyRequest, reply: FastifyReply): FastifyReply {
    request.raw.socket.destroy();
    return reply.hijack();
  }

  const app = Fastify({ logger: false });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));

  // Stripe's API answers browsers from any origin: Stripe.js calls it cross-origin.
  app.addHook('onRequest', async (request, reply) => {
    reply.header('access-control-allow-origin', '*');
    reply.header('access-control-expose-headers', 'request-id, stripe-version, idempotent-replayed');
    if (request.method === 'OPTIONS') {
      reply.header('access-control-allow-methods', 'GET, POST, DELETE, OPTIONS');
      reply.header(
        'access-control-allow-headers',
        request.headers['access-control-request-headers'] ?? 'authorization, content-type, idempotency-key, stripe-version',
      );
      reply.header('access-control-max-age', '300');
      return reply.code(204).send();
    }
    return undefined;
  });

  function send(reply: FastifyReply, requestId: string, apiVersion: string, result: ApiResult): FastifyReply {
    reply.header('request-id', requestId).header('stripe-version', apiVersion);
    if (result.status >= 400 && result.status < 500) reply.header('stripe-should-retry', 'false');
    return reply.code(result.status).type('application/json').send(result.body);
  }

  interface HandlerInput {
    caller: Caller;
    params: FormObject;
    context: RequestContext;
    id: string;
  }
  type Handler = (input: HandlerInput) => ApiResult;

  function route(allowPublishable: boolean, handler: Handler) {
    return async (request: FastifyRequest, reply: FastifyReply) => {
      const requestId = newRequestId();
      const apiVersionHeader = request.headers['stripe-version'];
      const apiVersion = typeof apiVersionHeader === 'string' ? apiVersionHeader : DEFAULT_API_VERSION;
      const idempotencyHeader = request.headers['idempotency-key'];
      const idempotencyKey = request.method === 'POST' && typeof idempotencyHeader === 'string' ? idempotencyHeader : null;
      try {
        const params = readParams(request);
        const caller = authenticate(request, params, allowPublishable);
        const path = request.url.split('?')[0] ?? '';

        const storeKey = idempotencyKey === null ? null : `${caller.apiKey}\n${idempotencyKey}`;
        const stored = storeKey === null ? undefined : idempotentResponses.get(storeKey);
        if (stored) {
          if (stored.method !== request.method || stored.path !== path || !isDeepStrictEqual(stored.params, params)) {
            throw new StripeApiError(400, {
              type: 'idempotency_error',
              message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`,
            });
          }
          reply.header('idempotent-replayed', 'true');
          if (dropAnswer(path)) return cutOff(request, reply);
          return send(reply, stored.requestId, apiVersion, stored.result);
        }

        const context: RequestContext = { requestId, idempotencyKey, apiVersion };
        const paramsForStore = structuredClone(params);
        let result: ApiResult;
        try {
          const id = (request.params as { id?: string }).id ?? '';
          result = handler({ caller, params, context, id });
        } catch (error) {
          if (!(error instanceof StripeApiError) || error.statusCode !== 402) throw error;
          result = { status: 402, body: { error: error.body } };
        }
        // Like Stripe, remember what the endpoint did, but not requests rejected before it ran.
        if (storeKey !== null && (result.status < 400 || result.status === 402)) {
          // Replays must return what was sent then, not the object as it is later.
          const snapshot = { status: result.status, body: structuredClone(result.body) };
          idempotentResponses.set(storeKey, { method: request.method, path, params: paramsForStore, requestId, result: snapshot });
        }
        if (dropAnswer(path)) return cutOff(request, reply);
        return send(reply, requestId, apiVersion, result);
      } catch (error) {
        if (error instanceof StripeApiError) {
          return send(reply, requestId, apiVersion, { status: error.statusCode, body: { error: error.body } });
        }
        if (error instanceof FormDecodeError) {
          return send(reply, requestId, apiVersion, {
            status: 400,
            body: { error: { type: 'invalid_request_error', message: error.message } },
          });
        }
        log(`internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
        return send(reply, requestId, apiVersion, {
          status: 500,
          body: { error: { type: 'api_error', message: 'An unknown error occurred in the Stripe stand-in.' } },
        });
      }
    };
  }

  app.post(
    '/v1/payment_intents',
    route(false, ({ params, context }) => account.createPaymentIntent(params, context)),
  );
  app.get(
    '/v1/payment_intents/:id',
    route(true, ({ caller, params, id }) => account.retrievePaymentIntent(id, caller.access, params)),
  );
  app.post(
    '/v1/payment_intents/:id/confirm',
    route(true, ({ caller, params, context, id }) => account.confirmPaymentIntent(id, caller.access, params, context)),
  );
  app.post(
    '/v1/payment_intents/:id/cancel',
    route(false, ({ params, context, id }) => account.cancelPaymentIntent(id, params, context)),
  );
  app.post(
    '/v1/payment_methods',
    route(true, ({ params }) => account.createPaymentMethod(params)),
  );
  app.post(
    '/v1/refunds',
    route(false, ({ params, context }) => account.createRefund(params, context)),
  );
  app.get(
    '/v1/refunds',
    route(false, ({ params }) => account.listRefunds(params)),
  );
  app.get(
    '/v1/refunds/:id',
    route(false, ({ id }) => account.retrieveRefund(id)),
  );
  // Not Stripe's API: what happens in Stripe's dashboard or at the cardholder's bank, for tests
  // and local work (a refund the shop did not make, a dispute opened and closed). Secret key only.
  app.post(
    '/_dashboard/payment_intents/:id/refund',
    route(false, ({ params, context, id }) => account.createRefund({ ...params, payment_intent: id }, context)),
  );
  app.post(
    '/_dashboard/payment_intents/:id/dispute',
    route(false, ({ params, context, id }) => account.openDispute(id, params, context)),
  );
  app.post(
    '/_dashboard/disputes/:id/close',
    route(false, ({ params, context, id }) => account.closeDispute(id, params, context)),
  );
  app.post(
    '/_dashboard/refunds/:id/settle',
    route(false, ({ params, context, id }) => account.settleRefund(id, params, context)),
  );
  // Faults for tests of unknown outcomes: the next `count` requests to `path` are carried out
  // (and remembered under their idempotency key) but their connection is cut before the answer,
  // as a timeout looks to the caller.
  app.post('/_faults/drop-response', async (request, reply) => {
    const params = readParams(request);
    const path = typeof params.path === 'string' ? params.path : '';
    const count = Number(params.count ?? 1);
    if (!path.startsWith('/v1/') || !Number.isSafeInteger(count) || count < 0) {
      return reply.code(400).send({ error: { type: 'invalid_request_error', message: 'path (/v1/…) and count (≥ 0) are required.' } });
    }
    droppedResponses.set(path, count);
    return reply.send({ path, count });
  });
  app.get(
    '/v1/events/:id',
    route(false, ({ id }) => account.retrieveEvent(id)),
  );

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0];
    return send(reply, newRequestId(), DEFAULT_API_VERSION, {
      status: 404,
      body: {
        error: {
          type: 'invalid_request_error',
          message: `Unrecognized request URL (${request.method}: ${path}). The Stripe stand-in implements POST /v1/payment_intents, GET /v1/payment_intents/:id, POST /v1/payment_intents/:id/confirm, POST /v1/payment_intents/:id/cancel, POST /v1/payment_methods, POST /v1/refunds, GET /v1/refunds, GET /v1/refunds/:id and GET /v1/events/:id.`,
        },
      },
    });
  });

  const host = options.host ?? '127.0.0.1';
  const port = options.port ?? STRIPE_DEFAULTS.port;
  await app.listen({ host, port });
  const address = app.server.address();
  const boundPort = typeof address === 'object' && address ? address.port : port;

  return {
    url: `http://${urlHost(host)}:${boundPort}`,
    webhooksSettled: () => webhooks.settled(),
    async close() {
      webhooks.close();
      await app.close();
    },
  };
}
