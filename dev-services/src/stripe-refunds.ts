// What happens to a charge after the payment: refunds (whole or partial, pending until the bank
// settles them for the pending-refund test cards) and disputes, in the shapes and with the events
// of Stripe's API v1.

import { PENDING_REFUND_CARDS } from './stripe-cards.js';
import { invalidRequest, notFound } from './stripe-errors.js';
import type { FormObject } from './stripe-form.js';
import {
  nowSeconds,
  randomId,
  type ApiResult,
  type Charge,
  type Dispute,
  type PaymentIntent,
  type Refund,
  type RequestContext,
} from './stripe-objects.js';
import { formatAmount, readInteger, readMetadata, readString, REFUND_REASONS, rejectExpand, rejectUnknown } from './stripe-params.js';

/** What refunds and disputes need of the account: its charges and intents, and its event stream. */
export interface ChargeBook {
  charge(id: string): Charge | undefined;
  findPaymentIntent(id: string): PaymentIntent;
  cardNumber(paymentMethodId: string): string | undefined;
  emit(type: string, object: Charge | Refund | Dispute, context: RequestContext): void;
}

export class RefundsAndDisputes {
  private readonly refunds = new Map<string, Refund>();
  private readonly disputes = new Map<string, Dispute>();

  constructor(private readonly account: ChargeBook) {}

  /**
   * POST /v1/refunds (and the stand-in's dashboard): refunds a succeeded payment, in full or in
   * part, never beyond what is left; sends `refund.created` and `charge.refunded`, whose charge
   * carries `amount_refunded` (the total so far) as Stripe's does.
   */
  createRefund(params: FormObject, context: RequestContext): ApiResult {
    rejectUnknown(params, ['payment_intent', 'charge', 'amount', 'reason', 'metadata', 'expand']);
    rejectExpand(params);
    const intentId = readString(params, 'payment_intent');
    const chargeParam = readString(params, 'charge');
    if (intentId === undefined && chargeParam === undefined) {
      throw invalidRequest('One of the following params should be provided for this request: payment_intent or charge.', {
        code: 'parameter_missing',
      });
    }
    let charge: Charge | undefined;
    if (intentId !== undefined) {
      const intent = this.account.findPaymentIntent(intentId);
      charge = intent.latest_charge ? this.account.charge(intent.latest_charge) : undefined;
      if (intent.status !== 'succeeded' || !charge) {
        throw invalidRequest(`This PaymentIntent (${intent.id}) does not have a successful charge to refund.`, {
          code: 'charge_not_refundable',
          param: 'payment_intent',
        });
      }
    } else {
      charge = this.account.charge(chargeParam!);
      if (!charge) throw notFound('charge', chargeParam!, 'charge');
    }
    const remaining = charge.amount - charge.amount_refunded;
    if (remaining <= 0) {
      throw invalidRequest(`Charge ${charge.id} has already been refunded.`, { code: 'charge_already_refunded' });
    }
    const amount = readInteger(params, 'amount') ?? remaining;
    if (amount <= 0) throw invalidRequest('Invalid positive integer', { code: 'parameter_invalid_integer', param: 'amount' });
    if (amount > remaining) {
      throw invalidRequest(
        `Refund amount (${formatAmount(amount, charge.currency)}) is greater than unrefunded amount on charge (${formatAmount(remaining, charge.currency)})`,
        { code: 'amount_too_large', param: 'amount' },
      );
    }
    const reason = readString(params, 'reason') ?? null;
    if (reason !== null && !REFUND_REASONS.includes(reason)) {
      throw invalidRequest(`Invalid reason: must be one of ${REFUND_REASONS.join(', ')}`, { param: 'reason' });
    }
    const refund: Refund = {
      id: randomId('re'),
      object: 'refund',
      amount,
      balance_transaction: null,
      charge: charge.id,
      created: nowSeconds(),
      currency: charge.currency,
      metadata: readMetadata(params),
      payment_intent: charge.payment_intent,
      reason,
      receipt_number: null,
      source_transfer_reversal: null,
      status: PENDING_REFUND_CARDS.has(this.account.cardNumber(charge.payment_method) ?? '') ? 'pending' : 'succeeded',
      transfer_reversal: null,
    };
    this.refunds.set(refund.id, refund);
    // Like Stripe, a pending refund already counts in the charge's amount_refunded.
    charge.amount_refunded += amount;
    charge.refunded = charge.amount_refunded === charge.amount;
    this.account.emit('refund.created', refund, context);
    this.account.emit('charge.refunded', charge, context);
    return { status: 200, body: refund };
  }

  /**
   * The stand-in's dashboard: a pending refund settles, as Stripe's bank network does later
   * (`refund.updated`; a failure also gives the amount back to the charge and sends `refund.failed`).
   */
  settleRefund(refundId: string, params: FormObject, context: RequestContext): ApiResult {
    rejectUnknown(params, ['status']);
    const refund = this.refunds.get(refundId);
    if (!refund) throw notFound('refund', refundId);
    const status = readString(params, 'status') ?? 'succeeded';
    if (status !== 'succeeded' && status !== 'failed') throw invalidRequest('status must be succeeded or failed.', { param: 'status' });
    if (refund.status !== 'pending') throw invalidRequest(`Refund ${refund.id} is not pending (${refund.status}).`);
    refund.status = status;
    if (status === 'failed') {
      const charge = this.account.charge(refund.charge);
      if (charge) {
        charge.amount_refunded -= refund.amount;
        charge.refunded = false;
      }
      this.account.emit('refund.failed', refund, context);
    }
    this.account.emit('refund.updated', refund, context);
    return { status: 200, body: refund };
  }

  /** GET /v1/refunds, newest first, optionally of one payment intent or charge (no paging: few here). */
  listRefunds(params: FormObject): ApiResult {
    rejectUnknown(params, ['payment_intent', 'charge', 'limit']);
    const intentId = readString(params, 'payment_intent');
    const chargeId = readString(params, 'charge');
    const limit = readInteger(params, 'limit') ?? 10;
    const data = [...this.refunds.values()]
      .filter(
        (refund) =>
          (intentId === undefined || refund.payment_intent === intentId) && (chargeId === undefined || refund.charge === chargeId),
      )
      .reverse();
    return { status: 200, body: { object: 'list', data: data.slice(0, limit), has_more: data.length > limit, url: '/v1/refunds' } };
  }

  retrieveRefund(id: string): ApiResult {
    const refund = this.refunds.get(id);
    if (!refund) throw notFound('refund', id);
    return { status: 200, body: refund };
  }

  /** The stand-in's dashboard: the cardholder's bank opens a dispute (`charge.dispute.created`). */
  openDispute(intentId: string, params: FormObject, context: RequestContext): ApiResult {
    rejectUnknown(params, ['reason', 'amount']);
    const intent = this.account.findPaymentIntent(intentId);
    const charge = intent.latest_charge ? this.account.charge(intent.latest_charge) : undefined;
    if (intent.status !== 'succeeded' || !charge) {
      throw invalidRequest(`This PaymentIntent (${intent.id}) has no successful charge to dispute.`, { param: 'payment_intent' });
    }
    if (charge.disputed) throw invalidRequest(`Charge ${charge.id} is already disputed.`, { code: 'charge_disputed' });
    const reason = readString(params, 'reason') ?? 'fraudulent';
    const dispute: Dispute = {
      id: randomId('dp'),
      object: 'dispute',
      amount: readInteger(params, 'amount') ?? charge.amount - charge.amount_refunded,
      charge: charge.id,
      created: nowSeconds(),
      currency: charge.currency,
      is_charge_refundable: false,
      livemode: false,
      metadata: {},
      payment_intent: intent.id,
      reason,
      status: 'needs_response',
    };
    charge.disputed = true;
    this.disputes.set(dispute.id, dispute);
    this.account.emit('charge.dispute.created', dispute, context);
    return { status: 200, body: dispute };
  }

  /** The stand-in's dashboard: the bank decides (`charge.dispute.closed`, status won or lost). */
  closeDispute(disputeId: string, params: FormObject, context: RequestContext): ApiResult {
    rejectUnknown(params, ['status']);
    const dispute = this.disputes.get(disputeId);
    if (!dispute) throw notFound('dispute', disputeId);
    const status = readString(params, 'status');
    if (status !== 'won' && status !== 'lost') throw invalidRequest('Invalid status: must be one of won, lost', { param: 'status' });
    if (dispute.status === 'won' || dispute.status === 'lost') {
      throw invalidRequest(`Dispute ${dispute.id} is already closed (${dispute.status}).`, { code: 'dispute_already_closed' });
    }
    dispute.status = status;
    this.account.emit('charge.dispute.closed', dispute, context);
    return { status: 200, body: dispute };
  }
}
