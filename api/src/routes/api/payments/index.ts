import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Transaction } from 'kysely';
import type { Database } from '../../../db/database.js';
import { ErrorBodySchema as ErrorBody, isUuid, MIN_PAYMENT_CENTS, ROUTES } from '@boatshop/contract';
import { sendUnsentRefundsOfOrder } from '../../../features/orders/order-refunds.js';
import { findDeclinedCheckouts } from '../../../features/orders/declined-checkouts.js';
import { SYSTEM, tryTransitionOrder } from '../../../features/orders/order-state.js';
import {
  categoriesOfOrder,
  checkoutKey,
  findPaymentOfUserOrder,
  insertPendingOrder,
  lockShopperAndFindOpenOrders,
  priceCart,
  recordCardPayment,
  setOrderDeposit,
  setOrderTotal,
} from '../../../features/orders/orders.write-repository.js';
import { cartAmountForCheck, cartAmountForConsumer, decideOrderAmount } from '../../../features/vat/order-vat.js';
import { addDays, orderCreditorReference, quoteDeposit } from '../../../features/deposits/deposit-rules.js';
import { type PaymentProvider } from '../../../features/payments/payment-provider.js';
import { applyPaymentIntentState } from '../../../features/payments/payment-transitions.js';
import { checkHoldLimits, placeOrderHold } from '../../../features/stock/holds.js';
import { releaseOrderStock, reserveOrderStock } from '../../../features/stock/stock.repository.js';
// offers: an accepted offer is paid through this checkout at its agreed price
import { refuseSecondOrder, takeOverOfferHold } from '../../../features/offers/offers.repository.js';
import { ApiError, notFound } from '../../../lib/errors.js';
import { formatEuro } from '../../../lib/money.js';

import {
  MAX_ORDER_CENTS,
  tooLarge,
  pricesChanged,
  mergeLines,
  trimAddress,
  payableOffer,
  agreedPriceOf,
} from '../../../features/payments/checkout-input.js';
import { registerPaymentWebhook } from '../../../features/payments/webhook-route.js';

const routes = ROUTES.payments;

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
        response: { [routes.config.status]: routes.config.response, 503: ErrorBody },
      },
    },
    async () => provider().browserConfig,
  );

  fastify.post(
    '/quote',
    {
      preHandler: fastify.requireUser,
      config: { rateLimit: { max: 60, timeWindow: '1 minute' } },
      schema: {
        summary: 'Prices the cart from the database and says whether (and how much) a deposit is offered',
        description:
          'A deposit is required above the card limit and offered for the deposit categories. Nothing is opened or held. ' +
          '409 PRICES_CHANGED when a product is no longer sold (details say so).',
        tags: ['payments'],
        security: [{ session: [] }],
        body: routes.quote.body,
        response: {
          [routes.quote.status]: routes.quote.response,
          400: ErrorBody,
          401: ErrorBody,
          404: ErrorBody,
          409: ErrorBody,
          410: ErrorBody,
          422: ErrorBody,
          429: ErrorBody,
        },
      },
    },
    async (request) => {
      const lines = mergeLines(request.body.items);
      const offer = request.body.offerId ? await payableOffer(fastify.db, request.user!.id, request.body.offerId, lines) : null;
      const priced = await priceCart(fastify.db, lines, offer && agreedPriceOf(offer));
      if (priced.missingProductIds.length > 0) throw pricesChanged(priced.totalCents, true);
      if (priced.totalCents > MAX_ORDER_CENTS) {
        throw new ApiError(422, 'AMOUNT_TOO_LARGE', 'This order is too large to be paid online; please contact the shop.');
      }
      // books: once the buyer said who buys, the total and the deposit are what that buyer pays.
      const { buyerCheckId } = request.body;
      // Without a check, a consumer in the shipping country once the page knows it (an offer's
      // agreed price is gross and stays as agreed).
      const { shippingCountry } = request.body;
      const totalCents = buyerCheckId
        ? await cartAmountForCheck(fastify.db, fastify.config.seller, {
            userId: request.user!.id,
            checkId: buyerCheckId,
            items: request.body.items,
          })
        : shippingCountry && !offer
          ? await cartAmountForConsumer(fastify.db, fastify.config.seller, { country: shippingCountry, items: request.body.items })
          : priced.totalCents;
      return quoteDeposit({ totalCents, categories: priced.categories }, fastify.config.deposits);
    },
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
          "mode 'deposit' reserves with a deposit by card (422 DEPOSIT_NOT_OFFERED where none is offered); the balance is due by bank transfer. " +
          '409 OUT_OF_STOCK when a one-off boat has just been reserved or sold (details: its name). ' +
          "offerId: an accepted offer's checkout at its agreed price (404 not the caller's, 410 OFFER_EXPIRED, 409 OFFER_NOT_ACCEPTED / OFFER_ORDERED).",
        tags: ['payments'],
        security: [{ session: [] }],
        body: routes.create.body,
        response: {
          [routes.create.status]: routes.create.response,
          400: ErrorBody,
          401: ErrorBody,
          404: ErrorBody,
          409: ErrorBody,
          410: ErrorBody,
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
      const mode = request.body.mode ?? 'full';
      const settings = fastify.config.deposits;
      const user = request.user!;
      const lines = mergeLines(items);
      const shipping = trimAddress(request.body.shipping);
      const billing = trimAddress(request.body.billing);
      const cartKey = checkoutKey({
        userId: user.id,
        lines,
        shipping,
        billing,
        expectedTotalCents,
        ...(mode === 'deposit' ? { mode } : {}),
        // books: another buyer check is another amount to pay, so another order.
        ...(request.body.buyerCheckId ? { buyerCheckId: request.body.buyerCheckId } : {}),
        ...(request.body.offerId ? { offerId: request.body.offerId } : {}),
      });

      const holds = fastify.config.orders;
      const clientAddress = request.ip || null;
      /**
       * An unpaid checkout that holds one-off boats: only a verified account may hold one, within
       * the open-hold limits per account and per client address, for CHECKOUT_HOLD_MINUTES.
       */
      const guardCheckoutHold = async (trx: Transaction<Database>, orderId: string) => {
        const account = await trx.selectFrom('users').select('email_verified').where('id', '=', user.id).executeTakeFirstOrThrow();
        if (!account.email_verified) {
          throw new ApiError(
            403,
            'EMAIL_NOT_VERIFIED',
            'Please verify your e-mail address before reserving a one-off boat: open the link we sent you when you registered (your account page can send it again). Nothing was charged.',
          );
        }
        await checkHoldLimits(trx, {
          orderId,
          userId: user.id,
          clientAddress,
          limits: { maxPerAccount: holds.maxOpenHoldsPerAccount, maxPerAddress: holds.maxOpenHoldsPerAddress },
        });
        await trx
          .updateTable('orders')
          .set({ hold_expires_at: new Date(Date.now() + holds.checkoutHoldMinutes * 60_000), client_address: clientAddress })
          .where('id', '=', orderId)
          .execute();
      };
      const renewCheckoutHold = async (trx: Transaction<Database>, orderId: string) => {
        const order = await trx.selectFrom('orders').select('stock_status').where('id', '=', orderId).executeTakeFirstOrThrow();
        if (order.stock_status !== 'reserved' && order.stock_status !== 'released') return;
        if ((await placeOrderHold(trx, orderId, null)) > 0) await guardCheckoutHold(trx, orderId);
      };

      // One transaction: the order and its item snapshot exist only if the price checks pass.
      // The shopper's row lock makes concurrent Pay presses take turns: the second finds the first's order.
      const opened = await fastify.db.transaction().execute(async (trx) => {
        const ttl = fastify.config.orders.pendingOrderTtlMinutes;
        const open = await lockShopperAndFindOpenOrders(trx, user.id, ttl);
        const same =
          open.find((order) => order.cart_key === cartKey) ??
          (await findDeclinedCheckouts(trx, user.id, ttl)).find((order) => order.cart_key === cartKey);
        const replaced = open.filter((order) => order !== same);
        for (const order of replaced) {
          await tryTransitionOrder(trx, {
            orderId: order.id,
            to: 'cancelled',
            from: ['pending'],
            actor: { type: 'shopper', id: user.id },
            note: 'Replaced by a new checkout with a different cart',
            changes: { cart_key: null },
          });
        }
        const replacedIntents = replaced.map((order) => order.payment_reference).filter((id): id is string => id !== null);
        if (same) {
          // Pay pressed again: the hold is renewed (or taken again if it ended and the boat is still free).
          await renewCheckoutHold(trx, same.id);
          return { id: same.id, totalCents: same.total_cents, amountCents: same.deposit_cents ?? same.total_cents, replacedIntents };
        }

        // An offer's checkout: locked, checked, and at most one live order of it (the replaced ones are cancelled above).
        const offer = request.body.offerId ? await payableOffer(trx, user.id, request.body.offerId, lines) : null;
        if (offer) await refuseSecondOrder(trx, offer.id);
        const priced = await insertPendingOrder(trx, {
          userId: user.id,
          lines,
          shipping,
          billing,
          cartKey,
          agreed: offer && agreedPriceOf(offer),
        });
        const total = priced.totalCents;
        if (priced.missingProductIds.length > 0 || total !== BigInt(expectedTotalCents)) {
          throw pricesChanged(total, priced.missingProductIds.length > 0);
        }
        if (total > MAX_ORDER_CENTS) {
          throw new ApiError(422, 'AMOUNT_TOO_LARGE', 'This order is too large to be paid online; please contact the shop.');
        }
        // books: what the buyer pays is the VAT decision on the order's own lines under the buyer
        // check the checkout obtained: net for an exempt sale, gross for a consumer. The deposit follows.
        const payable = BigInt(
          await decideOrderAmount(trx, fastify.config.seller, {
            orderId: priced.orderId,
            userId: user.id,
            buyerCheckId: request.body.buyerCheckId,
            shipToCountry: shipping.address.country,
          }),
        );
        const quote = quoteDeposit({ totalCents: payable, categories: await categoriesOfOrder(trx, priced.orderId) }, settings);
        if (mode === 'full' && quote.depositRequired) throw tooLarge(quote);
        if (mode === 'deposit' && !quote.depositOffered) {
          throw new ApiError(
            422,
            'DEPOSIT_NOT_OFFERED',
            `This order can be paid in full by card; a deposit is offered only above ${formatEuro(settings.cardLimitCents)}` +
              (settings.categories.length > 0 ? ` or for ${settings.categories.join(', ')}.` : '.'),
            { totalCents: quote.totalCents },
          );
        }
        if (payable < BigInt(MIN_PAYMENT_CENTS)) {
          throw new ApiError(422, 'AMOUNT_TOO_SMALL', `The order total must be at least ${formatEuro(MIN_PAYMENT_CENTS)}.`, {
            totalCents: Number(payable),
          });
        }
        await setOrderTotal(trx, priced.orderId, Number(payable));
        let amountCents = Number(payable);
        if (mode === 'deposit') {
          amountCents = quote.depositCents!;
          await setOrderDeposit(trx, priced.orderId, {
            depositCents: amountCents,
            bankReference: orderCreditorReference(priced.orderId),
            balanceDueOn: addDays(new Date(), settings.balanceDueDays),
          });
        }
        // Stock: the units are held in this transaction, or 409 OUT_OF_STOCK undoes the order
        // (and the replaced orders' cancellation above, which released their own holds first).
        // The offer's hold on the boat passes to the order in this transaction.
        if (offer) await takeOverOfferHold(trx, offer.id);
        if ((await reserveOrderStock(trx, priced.orderId)) > 0) await guardCheckoutHold(trx, priced.orderId);
        return { id: priced.orderId, totalCents: Number(payable), amountCents, replacedIntents };
      });

      // The replaced carts' intents can no longer be paid.
      for (const intentId of opened.replacedIntents) {
        await payments.cancelIntent(intentId, 'duplicate').catch((err: unknown) => {
          request.log.error({ err, paymentIntentId: intentId }, 'replaced payment intent could not be cancelled');
        });
      }

      let intent: { id: string; clientSecret: string };
      try {
        // The same order asks for the same intent (idempotency key from the order id): a second
        // Pay press gets the first press's intent back.
        intent = await payments.createIntent({ orderId: opened.id, userId: user.id, amountCents: opened.amountCents });
      } catch (err) {
        request.log.error({ err, orderId: opened.id }, 'payment intent could not be created');
        await fastify.db.transaction().execute(async (trx) => {
          const failed = await tryTransitionOrder(trx, {
            orderId: opened.id,
            to: 'failed',
            from: ['pending'],
            actor: SYSTEM,
            note: 'The payment service did not answer',
            changes: { cart_key: null },
          });
          // No intent exists to retry: the hold goes back at once (a declined card keeps it).
          if (failed) await releaseOrderStock(trx, opened.id);
        });
        throw new ApiError(
          502,
          'PAYMENT_PROVIDER_UNAVAILABLE',
          'The payment service did not answer. Nothing was charged; please try again.',
        );
      }
      await recordCardPayment(fastify.db, { orderId: opened.id, paymentReference: intent.id, amountCents: opened.amountCents });
      return reply.code(201).send({
        orderId: opened.id,
        clientSecret: intent.clientSecret,
        totalCents: opened.totalCents,
        amountCents: opened.amountCents,
        mode,
      });
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
        body: routes.confirm.body,
        response: {
          [routes.confirm.status]: routes.confirm.response,
          400: ErrorBody,
          401: ErrorBody,
          404: ErrorBody,
          429: ErrorBody,
          502: ErrorBody,
          503: ErrorBody,
        },
      },
    },
    async (request) => {
      const { orderId } = request.body;
      const userId = request.user!.id;
      const order = isUuid(orderId) ? await findPaymentOfUserOrder(fastify.db, userId, orderId) : undefined;
      if (!order) throw notFound('Order not found');
      if (!['pending', 'failed'].includes(order.status) || !order.paymentReference) return { orderId, status: order.status };

      let intent;
      try {
        intent = await provider().retrieveIntent(order.paymentReference);
      } catch (err) {
        if (err instanceof ApiError) throw err;
        request.log.error({ err, orderId }, 'payment intent could not be retrieved');
        throw new ApiError(502, 'PAYMENT_PROVIDER_UNAVAILABLE', 'The payment service did not answer; please try again.');
      }
      await fastify.db.transaction().execute((trx) => applyPaymentIntentState(trx, request.log, intent, { type: 'shopper', id: userId }));
      // Paid after the hold ended and the boat is gone: the automatic refund goes out now.
      await sendUnsentRefundsOfOrder(fastify.db, fastify.payments, request.log, { orderId });
      const after = await findPaymentOfUserOrder(fastify.db, userId, orderId);
      return { orderId, status: after!.status };
    },
  );

  await registerPaymentWebhook(fastify, provider);
};

export default payments;
