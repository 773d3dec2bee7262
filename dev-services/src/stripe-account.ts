// The in-memory Stripe test-mode account behind the stand-in: payment intents and their events,
// with the request rules of Stripe's API v1; payment methods, refunds and disputes have modules of
// their own. Everything here is synchronous, so a request runs to completion before the next one
// reads the state.

import { chargeOutcome } from './stripe-cards.js';
import {
  cardErrorBody,
  invalidRequest,
  missingParam,
  notFound,
  StripeApiError,
  type CardErrorDetails,
  type StripeErrorBody,
} from './stripe-errors.js';
import type { FormObject } from './stripe-form.js';
import {
  newCharge,
  nowSeconds,
  randomId,
  type Access,
  type ApiResult,
  type Charge,
  type Dispute,
  type PaymentIntent,
  type PaymentMethod,
  type Refund,
  type RequestContext,
} from './stripe-objects.js';
import {
  CANCELLATION_REASONS,
  checkClientSecret,
  CURRENCY_LIMITS,
  formatAmount,
  readBoolean,
  readInteger,
  readMetadata,
  readObject,
  readShipping,
  readString,
  readStringList,
  rejectExpand,
  rejectUnknown,
  withoutStripeJsFields,
} from './stripe-params.js';
import { CardValidationError, PaymentMethods } from './stripe-payment-methods.js';
import { RefundsAndDisputes } from './stripe-refunds.js';
import type { StripeEvent } from './stripe-webhooks.js';

export interface StripeAccountEvents {
  onEvent: (event: StripeEvent) => void;
}

export class StripeAccount {
  private readonly paymentIntents = new Map<string, PaymentIntent>();
  private readonly paymentMethods = new PaymentMethods();
  private readonly events = new Map<string, StripeEvent>();
  private readonly charges = new Map<string, Charge>();
  private readonly intentApiVersions = new Map<string, string>();
  private readonly afterPayment = new RefundsAndDisputes({
    charge: (id) => this.charges.get(id),
    findPaymentIntent: (id) => this.findPaymentIntent(id),
    cardNumber: (paymentMethodId) => this.paymentMethods.cardNumber(paymentMethodId),
    emit: (type, object, context) => this.emit(type, object, context),
  });

  constructor(private readonly listeners: StripeAccountEvents) {}

  createPaymentIntent(params: FormObject, context: RequestContext): ApiResult {
    rejectUnknown(params, [
      'amount',
      'currency',
      'metadata',
      'description',
      'receipt_email',
      'shipping',
      'automatic_payment_methods',
      'payment_method_types',
      'payment_method',
      'confirm',
      'return_url',
      'expand',
    ]);
    rejectExpand(params);

    const amount = readInteger(params, 'amount');
    if (amount === undefined) throw missingParam('amount');
    const currency = readString(params, 'currency')?.toLowerCase();
    if (!currency) throw missingParam('currency');
    const limits = CURRENCY_LIMITS[currency];
    if (!limits) {
      throw invalidRequest(
        `Invalid currency: ${currency}. The Stripe stand-in supports these currencies: ${Object.keys(CURRENCY_LIMITS).join(', ')}.`,
        { param: 'currency' },
      );
    }
    if (amount < limits.min) {
      throw invalidRequest(`Amount must be at least ${formatAmount(limits.min, currency)} ${currency}`, {
        code: 'amount_too_small',
        param: 'amount',
      });
    }
    if (amount > limits.max) {
      throw invalidRequest(`Amount must be no more than ${formatAmount(limits.max, currency)}`, {
        code: 'amount_too_large',
        param: 'amount',
      });
    }

    const automatic = readObject(params, 'automatic_payment_methods');
    const types = readStringList(params, 'payment_method_types');
    if (automatic !== undefined && types !== undefined) {
      throw invalidRequest('You may only specify one of these parameters: automatic_payment_methods, payment_method_types.', {
        param: 'automatic_payment_methods',
      });
    }
    let automaticPaymentMethods: PaymentIntent['automatic_payment_methods'] = null;
    if (automatic !== undefined) {
      rejectUnknown(automatic, ['enabled', 'allow_redirects'], 'automatic_payment_methods');
      const enabled = readBoolean(automatic, 'enabled');
      if (enabled === undefined) throw missingParam('automatic_payment_methods[enabled]');
      const allowRedirects = readString(automatic, 'allow_redirects', 'automatic_payment_methods[allow_redirects]') ?? 'always';
      if (allowRedirects !== 'always' && allowRedirects !== 'never') {
        throw invalidRequest(`Invalid automatic_payment_methods[allow_redirects]: must be one of always or never`, {
          param: 'automatic_payment_methods[allow_redirects]',
        });
      }
      if (enabled) automaticPaymentMethods = { allow_redirects: allowRedirects, enabled: true };
    } else if (types === undefined) {
      // Since API version 2023-08-16 omitting both parameters means automatic payment methods.
      automaticPaymentMethods = { allow_redirects: 'always', enabled: true };
    }
    const unsupportedType = types?.find((type) => type !== 'card');
    if (unsupportedType !== undefined) {
      throw invalidRequest(`The payment method type "${unsupportedType}" is invalid. The Stripe stand-in only supports card payments.`, {
        code: 'payment_intent_invalid_parameter',
        param: 'payment_method_types',
      });
    }

    const confirm = readBoolean(params, 'confirm') ?? false;
    if (!confirm && params.return_url !== undefined) {
      throw invalidRequest('You can only pass in return_url if confirm is set to true.', { param: 'return_url' });
    }

    const id = randomId('pi');
    const intent: PaymentIntent = {
      id,
      object: 'payment_intent',
      amount,
      amount_capturable: 0,
      amount_details: { tip: {} },
      amount_received: 0,
      application: null,
      application_fee_amount: null,
      automatic_payment_methods: automaticPaymentMethods,
      canceled_at: null,
      cancellation_reason: null,
      capture_method: 'automatic_async',
      client_secret: `${id}_secret_${randomId('x', 25).slice(2)}`,
      confirmation_method: 'automatic',
      created: nowSeconds(),
      currency,
      customer: null,
      description: readString(params, 'description') ?? null,
      last_payment_error: null,
      latest_charge: null,
      livemode: false,
      metadata: readMetadata(params),
      next_action: null,
      on_behalf_of: null,
      payment_method: null,
      payment_method_configuration_details: null,
      payment_method_options: {
        card: { installments: null, mandate_options: null, network: null, request_three_d_secure: 'automatic' },
      },
      payment_method_types: ['card'],
      processing: null,
      receipt_email: readString(params, 'receipt_email') ?? null,
      review: null,
      setup_future_usage: null,
      shipping: readShipping(params) ?? null,
      source: null,
      statement_descriptor: null,
      statement_descriptor_suffix: null,
      status: 'requires_payment_method',
      transfer_data: null,
      transfer_group: null,
    };

    const paymentMethodId = readString(params, 'payment_method');
    const paymentMethod = paymentMethodId === undefined ? undefined : this.paymentMethods.resolve(paymentMethodId, 'payment_method');
    if (paymentMethod) {
      intent.payment_method = paymentMethod.id;
      intent.status = 'requires_confirmation';
    }
    this.paymentIntents.set(id, intent);
    this.intentApiVersions.set(id, context.apiVersion);

    if (confirm) return this.runConfirmation(intent, paymentMethod, context);
    return { status: 200, body: intent };
  }

  retrievePaymentIntent(id: string, access: Access, params: FormObject): ApiResult {
    const intent = this.findPaymentIntent(id);
    if (access === 'publishable') {
      rejectUnknown(withoutStripeJsFields(params), ['client_secret', 'expand']);
      checkClientSecret(intent, params);
    } else {
      rejectUnknown(params, ['expand']);
    }
    rejectExpand(params);
    return { status: 200, body: intent };
  }

  confirmPaymentIntent(id: string, access: Access, rawParams: FormObject, context: RequestContext): ApiResult {
    const intent = this.findPaymentIntent(id);
    const params = access === 'publishable' ? withoutStripeJsFields(rawParams) : rawParams;
    const allowed = ['payment_method', 'payment_method_data', 'return_url', 'receipt_email', 'shipping', 'expand'];
    rejectUnknown(params, access === 'publishable' ? [...allowed, 'client_secret'] : allowed);
    if (access === 'publishable') checkClientSecret(intent, params);
    rejectExpand(params);

    if (intent.status !== 'requires_payment_method' && intent.status !== 'requires_confirmation') {
      const message =
        intent.status === 'succeeded'
          ? 'You cannot confirm this PaymentIntent because it has already succeeded after being previously confirmed.'
          : `You cannot confirm this PaymentIntent because it has a status of ${intent.status}.`;
      throw invalidRequest(message, { code: 'payment_intent_unexpected_state' });
    }

    const paymentMethodId = readString(params, 'payment_method');
    const paymentMethodData = readObject(params, 'payment_method_data');
    if (paymentMethodId !== undefined && paymentMethodData !== undefined) {
      throw invalidRequest('You may only specify one of these parameters: payment_method, payment_method_data.', {
        param: 'payment_method_data',
      });
    }
    const shipping = readShipping(params);
    const receiptEmail = readString(params, 'receipt_email');
    if (shipping) intent.shipping = shipping;
    if (receiptEmail !== undefined) intent.receipt_email = receiptEmail || null;

    let paymentMethod: PaymentMethod | undefined;
    try {
      if (paymentMethodData !== undefined) {
        paymentMethod = this.paymentMethods.build(paymentMethodData, 'payment_method_data');
      } else if (paymentMethodId !== undefined) {
        paymentMethod = this.paymentMethods.resolve(paymentMethodId, 'payment_method');
      } else if (intent.payment_method !== null) {
        paymentMethod = this.paymentMethods.get(intent.payment_method);
      }
    } catch (error) {
      if (error instanceof CardValidationError) return this.failPayment(intent, error.details, undefined, undefined, context);
      throw error;
    }
    return this.runConfirmation(intent, paymentMethod, context);
  }

  createPaymentMethod(params: FormObject): ApiResult {
    try {
      return { status: 200, body: this.paymentMethods.build(withoutStripeJsFields(params), '') };
    } catch (error) {
      if (error instanceof CardValidationError) throw new StripeApiError(402, cardErrorBody(error.details));
      throw error;
    }
  }

  /**
   * POST /v1/payment_intents/:id/cancel. Stripe cancels an intent in any state but succeeded
   * and canceled, and sends `payment_intent.canceled`.
   */
  cancelPaymentIntent(id: string, params: FormObject, context: RequestContext): ApiResult {
    const intent = this.findPaymentIntent(id);
    rejectUnknown(params, ['cancellation_reason', 'expand']);
    rejectExpand(params);
    const reason = readString(params, 'cancellation_reason') ?? null;
    if (reason !== null && !CANCELLATION_REASONS.includes(reason)) {
      throw invalidRequest(`Invalid cancellation_reason: must be one of ${CANCELLATION_REASONS.join(', ')}`, {
        param: 'cancellation_reason',
      });
    }
    if (intent.status === 'succeeded' || intent.status === 'canceled') {
      throw invalidRequest(
        `You cannot cancel this PaymentIntent because it has a status of ${intent.status}. Only a PaymentIntent with one of the following statuses may be canceled: requires_payment_method, requires_capture, requires_confirmation, requires_action, processing.`,
        { code: 'payment_intent_unexpected_state' },
      );
    }
    intent.status = 'canceled';
    intent.canceled_at = nowSeconds();
    intent.cancellation_reason = reason;
    this.emit('payment_intent.canceled', intent, context);
    return { status: 200, body: intent };
  }

  // Refunds and disputes (src/stripe-refunds.ts) are about the charge a payment made.
  createRefund(params: FormObject, context: RequestContext): ApiResult {
    return this.afterPayment.createRefund(params, context);
  }

  settleRefund(refundId: string, params: FormObject, context: RequestContext): ApiResult {
    return this.afterPayment.settleRefund(refundId, params, context);
  }

  listRefunds(params: FormObject): ApiResult {
    return this.afterPayment.listRefunds(params);
  }

  retrieveRefund(id: string): ApiResult {
    return this.afterPayment.retrieveRefund(id);
  }

  openDispute(intentId: string, params: FormObject, context: RequestContext): ApiResult {
    return this.afterPayment.openDispute(intentId, params, context);
  }

  closeDispute(disputeId: string, params: FormObject, context: RequestContext): ApiResult {
    return this.afterPayment.closeDispute(disputeId, params, context);
  }

  retrieveEvent(id: string): ApiResult {
    const event = this.events.get(id);
    if (!event) throw notFound('event', id);
    return { status: 200, body: event };
  }

  private findPaymentIntent(id: string): PaymentIntent {
    const intent = this.paymentIntents.get(id);
    if (!intent) throw notFound('payment_intent', id, 'intent');
    return intent;
  }

  private runConfirmation(intent: PaymentIntent, paymentMethod: PaymentMethod | undefined, context: RequestContext): ApiResult {
    if (!paymentMethod) {
      throw invalidRequest(
        "You cannot confirm this PaymentIntent because it's missing a payment method. You can either update the PaymentIntent with a payment method and then confirm it again, or confirm it again directly with a payment method.",
        { code: 'payment_intent_unexpected_state' },
      );
    }
    const chargeId = randomId('ch');
    const decline = chargeOutcome(this.paymentMethods.cardNumber(paymentMethod.id) ?? '');
    if (decline) return this.failPayment(intent, decline, paymentMethod, chargeId, context);

    intent.status = 'succeeded';
    intent.amount_received = intent.amount;
    intent.latest_charge = chargeId;
    this.charges.set(chargeId, newCharge(chargeId, intent, paymentMethod.id));
    intent.payment_method = paymentMethod.id;
    intent.last_payment_error = null;
    this.emit('payment_intent.succeeded', intent, context);
    return { status: 200, body: intent };
  }

  private failPayment(
    intent: PaymentIntent,
    details: CardErrorDetails,
    paymentMethod: PaymentMethod | undefined,
    chargeId: string | undefined,
    context: RequestContext,
  ): ApiResult {
    const error: StripeErrorBody = {
      ...cardErrorBody(details),
      ...(chargeId ? { charge: chargeId } : {}),
      ...(paymentMethod ? { payment_method: paymentMethod } : {}),
    };
    intent.status = 'requires_payment_method';
    intent.payment_method = null;
    intent.latest_charge = chargeId ?? intent.latest_charge;
    intent.last_payment_error = error;
    this.emit('payment_intent.payment_failed', intent, context);
    return { status: 402, body: { error: { ...error, payment_intent: intent } } };
  }

  private emit(type: string, object: PaymentIntent | Charge | Refund | Dispute, context: RequestContext): void {
    const intentId = object.object === 'payment_intent' ? object.id : object.payment_intent;
    const event: StripeEvent = {
      id: randomId('evt'),
      object: 'event',
      api_version: this.intentApiVersions.get(intentId) ?? context.apiVersion,
      created: nowSeconds(),
      // A snapshot: later changes to the object must not rewrite an event already sent.
      data: { object: structuredClone(object) },
      livemode: false,
      pending_webhooks: 1,
      request: { id: context.requestId, idempotency_key: context.idempotencyKey },
      type,
    };
    this.events.set(event.id, event);
    this.listeners.onEvent(event);
  }
}
