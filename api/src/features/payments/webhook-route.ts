import type { FastifyInstance } from 'fastify';
import { ErrorBodySchema as ErrorBody, isUuid, WebhookResponseSchema } from '@boatshop/contract';
import { applyRefundAnswer, sendUnsentRefundsOfOrder } from '../orders/order-refunds.js';
import { recordPaymentEvent } from './payment-events.repository.js';
import { WebhookSignatureError, type PaymentEvent, type PaymentProvider, type RefundResult } from './payment-provider.js';
import { applyChargeRefunded, applyDispute, applyPaymentIntentState } from './payment-transitions.js';
import { ApiError } from '../../lib/errors.js';

/** Webhook bodies above this are refused. */
const WEBHOOK_BODY_LIMIT = 1024 * 1024;

/**
 * POST /api/payments/webhook, registered by the payments routes: the provider's events, verified
 * on the exact bytes sent (this route alone keeps the body raw), each applied once.
 */
export async function registerPaymentWebhook(fastify: FastifyInstance, provider: () => PaymentProvider): Promise<void> {
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
          summary: "The provider's events (payment intents, refunds, disputes), verified by stripe-signature",
          description: 'Each event id is applied once; replays and re-deliveries answer 200 and change nothing.',
          tags: ['payments'],
          response: { 200: WebhookResponseSchema, 400: ErrorBody, 503: ErrorBody },
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

        const paymentReference =
          'intent' in event
            ? event.intent.id
            : 'charge' in event
              ? event.charge.paymentIntentId
              : 'refund' in event
                ? event.refund.paymentIntentId
                : event.dispute.paymentIntentId;
        // Recording the event and applying it commit together: a failure leaves neither, and the
        // provider's retry applies it then.
        await fastify.db.transaction().execute(async (trx) => {
          const firstDelivery = await recordPaymentEvent(trx, { eventId: event.id, type: event.type, paymentReference });
          if (!firstDelivery) return;
          switch (event.type) {
            case 'charge.refunded':
              return applyChargeRefunded(trx, event.charge);
            case 'refund.created':
            case 'refund.updated':
              // The shop's own refund, settled by the provider: completes (or closes) it if the API
              // stopped before, or the provider answered pending.
              if (event.refund.shopRefundId && event.refund.status && isUuid(event.refund.shopRefundId)) {
                await applyRefundAnswer(trx, event.refund.shopRefundId, {
                  id: event.refund.id,
                  status: event.refund.status as RefundResult['status'],
                });
              }
              return;
            case 'charge.dispute.created':
            case 'charge.dispute.closed':
              return applyDispute(trx, event.type, event.dispute);
            default:
              return applyPaymentIntentState(trx, request.log, event.intent);
          }
        });
        // A payment whose boat went to someone else meanwhile: its automatic refund goes out now.
        if (event.type === 'payment_intent.succeeded') {
          await sendUnsentRefundsOfOrder(fastify.db, payments, request.log, { paymentReference: event.intent.id });
        }
        return { received: true };
      },
    );
  });
}
