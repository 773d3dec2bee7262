import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import {
  findPaymentOfUserOrder,
  insertPendingOrder,
  markPendingOrderFailed,
  setOrderTotal,
  setPaymentReference,
  type CartLine,
} from '../../../features/orders/orders.write-repository.js';
import { recordPaymentEvent } from '../../../features/payments/payment-events.repository.js';
import {
  MAX_PAYMENT_CENTS,
  MIN_PAYMENT_CENTS,
  WebhookSignatureError,
  type PaymentEvent,
  type PaymentProvider,
} from '../../../features/payments/payment-provider.js';
import { applyPaymentIntentState } from '../../../features/payments/payment-transitions.js';
import { releaseOrderStock, reserveOrderStock } from '../../../features/stock/stock.repository.js';
import {
  ConfirmPaymentBodySchema,
  ConfirmPaymentResponseSchema,
  CreatePaymentBodySchema,
  CreatePaymentResponseSchema,
  PaymentConfigSchema,
  type NamedAddressInput,
} from '../../../features/payments/payments.schema.js';
import { ApiError, ErrorBody, notFound } from '../../../lib/errors.js';
import { isUuid } from '../../../lib/uuid.js';

const euro = new Intl.NumberFormat('de-DE', { style: 'currency', currency: 'EUR' });
/** Same format as the shop's pages (SPEC §9), for messages shown to the shopper as they are. */
const formatEuro = (cents: bigint | number) => euro.format(Number(cents) / 100);

const WEBHOOK_BODY_LIMIT = 1024 * 1024;

function pricesChanged(totalCents: bigint, productsMissing: boolean): ApiError {
  return new ApiError(409, 'PRICES_CHANGED', `Prices changed: the new total is ${formatEuro(totalCents)}.`, {
    totalCents: Number(totalCents),
    ...(productsMissing ? { details: ['A product in your cart is no longer sold.'] } : {}),
  });
}

/** The same product twice in a request is one line with both quantities. */
function mergeLines(items: CartLine[]): CartLine[] {
  const quantities = new Map<string, number>();
  for (const { productId, quantity } of items) {
    const id = productId.toLowerCase();
    quantities.set(id, (quantities.get(id) ?? 0) + quantity);
  }
  return [...quantities].map(([productId, quantity]) => ({ productId, quantity }));
}

function trimAddress(input: NamedAddressInput): NamedAddressInput {
  const { address } = input;
  return {
    name: input.name.trim(),
    address: {
      line1: address.line1.trim(),
      city: address.city.trim(),
      state: address.state.trim(),
      postal_code: address.postal_code.trim(),
      country: address.country,
    },
  };
}

const payments: FastifyPluginAsyncTypebox = async (fastify) => {
  function provider(): PaymentProvider {
    if (!fastify.payments) throw new ApiError(503, 'PAYMENTS_UNAVAILABLE', 'Card payments are not available right now.');
    return fastify.payments;
  }

  fastify.get(
    '/config',
    {
      schema: {
        summary: 'Which card field the browser shows: Stripe Elements or the local stand-in form',
        tags: ['payments'],
        response: { 200: PaymentConfigSchema, 503: ErrorBody },
      },
    },
    async () => provider().browserConfig,
  );

  fastify.post(
    '/create',
    {
      preHandler: fastify.requireUser,
      config: { rateLimit: { max: 30, timeWindow: '1 minute' } },
      schema: {
        summary: 'Prices the cart from the database, opens a pending order and its payment intent',
        description:
          'The browser sends products and quantities, never prices. 409 PRICES_CHANGED carries the server total; ' +
          '422 AMOUNT_TOO_LARGE / AMOUNT_TOO_SMALL are refused before any charge. ' +
          '409 OUT_OF_STOCK when a one-off boat has just been reserved or sold (details: its name).',
        tags: ['payments'],
        security: [{ session: [] }],
        body: CreatePaymentBodySchema,
        response: {
          201: CreatePaymentResponseSchema,
          400: ErrorBody,
          401: ErrorBody,
          409: ErrorBody,
          422: ErrorBody,
          429: ErrorBody,
          502: ErrorBody,
          503: ErrorBody,
        },
      },
    },
    async (request, reply) => {
      const payments = provider();
      const { items, expectedTotalCents } = request.body;
      const user = request.user!;

      // One transaction: the order and its item snapshot exist only if the price checks pass.
      const order = await fastify.db.transaction().execute(async (trx) => {
        const priced = await insertPendingOrder(trx, {
          userId: user.id,
          lines: mergeLines(items),
          shipping: trimAddress(request.body.shipping),
          billing: trimAddress(request.body.billing),
        });
        const total = priced.totalCents;
        if (priced.missingProductIds.length > 0 || total !== BigInt(expectedTotalCents)) {
          throw pricesChanged(total, priced.missingProductIds.length > 0);
        }
        if (total > BigInt(MAX_PAYMENT_CENTS)) {
          throw new ApiError(
            422,
            'AMOUNT_TOO_LARGE',
            `Card payments are limited to ${formatEuro(MAX_PAYMENT_CENTS)} per order; this order comes to ${formatEuro(total)}. Nothing was charged.`,
            { totalCents: Number(total) },
          );
        }
        if (total < BigInt(MIN_PAYMENT_CENTS)) {
          throw new ApiError(422, 'AMOUNT_TOO_SMALL', `The order total must be at least ${formatEuro(MIN_PAYMENT_CENTS)}.`, {
            totalCents: Number(total),
          });
        }
        await setOrderTotal(trx, priced.orderId, Number(total));
        // Stock (issue 13): the units are held in this transaction, or 409 OUT_OF_STOCK undoes the order.
        await reserveOrderStock(trx, priced.orderId);
        return { id: priced.orderId, totalCents: Number(total) };
      });

      let intent: { id: string; clientSecret: string };
      try {
        intent = await payments.createIntent({ orderId: order.id, userId: user.id, amountCents: order.totalCents });
      } catch (err) {
        request.log.error({ err, orderId: order.id }, 'payment intent could not be created');
        await fastify.db.transaction().execute(async (trx) => {
          await markPendingOrderFailed(trx, order.id);
          await releaseOrderStock(trx, order.id);
        });
        throw new ApiError(502, 'PAYMENT_PROVIDER_UNAVAILABLE', 'The payment service did not answer. Nothing was charged; please try again.');
      }
      await setPaymentReference(fastify.db, order.id, intent.id);
      return reply.code(201).send({ orderId: order.id, clientSecret: intent.clientSecret, totalCents: order.totalCents });
    },
  );

  fastify.post(
    '/confirm',
    {
      preHandler: fastify.requireUser,
      config: { rateLimit: { max: 120, timeWindow: '1 minute' } },
      schema: {
        summary: 'After the browser reports a payment, asks the provider and applies what it says',
        description: 'Idempotent: any number of calls (and webhooks) make at most one paid transition.',
        tags: ['payments'],
        security: [{ session: [] }],
        body: ConfirmPaymentBodySchema,
        response: { 200: ConfirmPaymentResponseSchema, 400: ErrorBody, 401: ErrorBody, 404: ErrorBody, 429: ErrorBody, 502: ErrorBody, 503: ErrorBody },
      },
    },
    async (request) => {
      const { orderId } = request.body;
      const userId = request.user!.id;
      const order = isUuid(orderId) ? await findPaymentOfUserOrder(fastify.db, userId, orderId) : undefined;
      if (!order) throw notFound('Order not found');
      if (order.status === 'paid' || !order.paymentReference) return { orderId, status: order.status };

      let intent;
      try {
        intent = await provider().retrieveIntent(order.paymentReference);
      } catch (err) {
        if (err instanceof ApiError) throw err;
        request.log.error({ err, orderId }, 'payment intent could not be retrieved');
        throw new ApiError(502, 'PAYMENT_PROVIDER_UNAVAILABLE', 'The payment service did not answer; please try again.');
      }
      await applyPaymentIntentState(fastify.db, intent);
      const after = await findPaymentOfUserOrder(fastify.db, userId, orderId);
      return { orderId, status: after!.status };
    },
  );

  // Stripe signs the exact bytes it sent: this route alone keeps the body raw.
  await fastify.register(async (webhookScope) => {
    webhookScope.removeAllContentTypeParsers();
    webhookScope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT }, (_request, body, done) => {
      done(null, body);
    });

    webhookScope.post(
      '/webhook',
      {
        schema: {
          summary: "The provider's events (payment_intent.succeeded / payment_failed), verified by stripe-signature",
          description: 'Each event id is applied once; replays and re-deliveries answer 200 and change nothing.',
          tags: ['payments'],
          response: { 200: Type.Object({ received: Type.Boolean() }), 400: ErrorBody, 503: ErrorBody },
        },
      },
      async (request) => {
        const payments = provider();
        const signature = request.headers['stripe-signature'];
        let event: PaymentEvent;
        try {
          if (typeof signature !== 'string' || !Buffer.isBuffer(request.body)) throw new WebhookSignatureError('No signed body');
          event = payments.parseWebhook(request.body, signature);
        } catch (err) {
          if (!(err instanceof WebhookSignatureError)) throw err;
          request.log.warn({ reason: err.message }, 'webhook signature rejected');
          throw new ApiError(400, 'INVALID_SIGNATURE', 'The webhook signature is not valid.');
        }
        if (event.type === 'other') return { received: true };

        const { intent } = event;
        // Recording the event and applying it commit together: a failure leaves neither, and the
        // provider's retry applies it then.
        await fastify.db.transaction().execute(async (trx) => {
          const firstDelivery = await recordPaymentEvent(trx, { eventId: event.id, type: event.type, paymentReference: intent.id });
          if (firstDelivery) await applyPaymentIntentState(trx, intent);
        });
        return { received: true };
      },
    );
  });
};

export default payments;
