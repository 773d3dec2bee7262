import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, Navigate, useParams } from 'react-router-dom';
import { ROUTE_PATHS, isApiError, type ResponseOf } from '@boatshop/contract/client';
import type { NamedAddress, PaymentConfig, PaymentMode, PaymentQuote } from '@boatshop/contract';
import { formatDay, formatPrice } from '@boatshop/state';
import { client } from '../api';
import type { CardPaymentMethod } from '../payments/card-payment';
import { CardField } from '../payments/card-field';
import { AddressFieldset, EMPTY_ADDRESS, isFilled } from './payment';
import '../styles.css';

type Offer = ResponseOf<typeof ROUTE_PATHS.offers.get>;

type Loaded =
  | { status: 'loading' }
  | { status: 'missing'; message: string }
  | { status: 'ready'; offer: Offer; quote: PaymentQuote; config: PaymentConfig };

const messageOf = (error: unknown, fallback: string) =>
  isApiError(error) && error.status > 0 && error.status < 500 ? error.message : fallback;

/**
 * /payment/offer/:offerID: the checkout of an accepted offer. The one boat at the agreed price,
 * never the catalogue's: the API opens the order from the offer (POST /api/payments/create with
 * its offerId) and refuses any other total. Above the card limit the boat is reserved with a
 * deposit by card and the balance follows by bank transfer, as in the cart's checkout.
 */
export default function OfferPayment() {
  const { offerID = '' } = useParams();
  const [loaded, setLoaded] = useState<Loaded>({ status: 'loading' });
  const [depositChosen, setDepositChosen] = useState(false);
  const [shipping, setShipping] = useState<NamedAddress>(EMPTY_ADDRESS);
  const [billing, setBilling] = useState<NamedAddress>(EMPTY_ADDRESS);
  const [submitting, setSubmitting] = useState(false);
  const [failure, setFailure] = useState('');
  const [paidOrder, setPaidOrder] = useState<string | null>(null);
  const card = useRef<CardPaymentMethod | null>(null);
  const onCardReady = useCallback((method: CardPaymentMethod | null) => {
    card.current = method;
  }, []);

  useEffect(() => {
    let current = true;
    (async () => {
      try {
        const offer = await client.request(ROUTE_PATHS.offers.get, { params: { id: offerID } });
        const [quote, config] = await Promise.all([
          client.payments.quote({ items: [{ productId: offer.productId ?? '', quantity: 1 }], offerId: offer.id }),
          client.payments.config(),
        ]);
        if (current) setLoaded({ status: 'ready', offer, quote, config });
      } catch (error) {
        if (current) setLoaded({ status: 'missing', message: messageOf(error, 'This offer could not be loaded. Please try again.') });
      }
    })();
    return () => {
      current = false;
    };
  }, [offerID]);

  if (paidOrder) return <Navigate to={`/order/${paidOrder}`} state={{ paymentReceived: true }} replace />;
  if (loaded.status === 'loading') {
    return (
      <section className="checkout-page" aria-busy="true">
        <p className="checkout-muted" role="status">
          Loading your offer…
        </p>
      </section>
    );
  }
  if (loaded.status === 'missing') {
    return (
      <section className="checkout-page" aria-labelledby="offer-payment-title">
        <h1 id="offer-payment-title">This offer cannot be paid</h1>
        <p className="bs-error" role="alert">
          {loaded.message}
        </p>
        <Link to="/messages">Back to your messages</Link>
      </section>
    );
  }

  const { offer, quote, config } = loaded;
  const totalCents = quote.totalCents;
  const mode: PaymentMode =
    quote.depositOffered && quote.depositCents !== null && (quote.depositRequired || depositChosen) ? 'deposit' : 'full';
  const amountCents = mode === 'deposit' ? quote.depositCents! : totalCents;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (submitting || !card.current || !isFilled(shipping) || !isFilled(billing) || !card.current.isComplete()) return;
    setSubmitting(true);
    setFailure('');
    try {
      const created = await client.payments.create({
        items: [{ productId: offer.productId ?? '', quantity: 1 }],
        expectedTotalCents: totalCents,
        shipping,
        billing,
        offerId: offer.id,
        ...(mode === 'deposit' ? { mode } : {}),
      });
      const result = await card.current.confirm(created.clientSecret, billing);
      if (!result.ok) {
        client.payments
          .confirm({ orderId: created.orderId })
          .catch((error: unknown) => console.error('Payment confirmation failed', error));
        setFailure(result.message);
      } else {
        setPaidOrder(created.orderId);
      }
    } catch (error) {
      setFailure(messageOf(error, 'The shop could not be reached. Nothing was charged; please try again.'));
    }
    setSubmitting(false);
  }

  return (
    <section className="checkout-page" aria-labelledby="offer-payment-title">
      <h1 id="offer-payment-title">Payment of your offer</h1>
      <p className="checkout-amount">
        {offer.productName} at the agreed price of <strong>{formatPrice(totalCents)}</strong>
      </p>
      <p className="checkout-muted">
        The boat is held for you until {formatDay(offer.validUntil)}.{offer.conditions ? ` Conditions: ${offer.conditions}` : ''}
      </p>
      {quote.depositOffered && quote.depositCents !== null ? (
        <section className="checkout-deposit" aria-labelledby="offer-deposit-title">
          <h2 id="offer-deposit-title">Reserve with a deposit</h2>
          {quote.depositRequired ? (
            <p>
              The agreed price is more than one card payment can carry ({formatPrice(quote.cardLimitCents)}). Reserve the boat with a
              deposit by card; the balance follows by bank transfer.
            </p>
          ) : (
            <label>
              <input type="checkbox" checked={depositChosen} onChange={(event) => setDepositChosen(event.target.checked)} /> Reserve with a
              deposit of {formatPrice(quote.depositCents)} instead of paying in full
            </label>
          )}
          <dl className="checkout-deposit__terms">
            <div>
              <dt>Deposit, paid by card now</dt>
              <dd>{formatPrice(quote.depositCents)}</dd>
            </div>
            <div>
              <dt>Balance, due by bank transfer within {quote.balanceDueDays} days</dt>
              <dd>{formatPrice(totalCents - quote.depositCents)}</dd>
            </div>
          </dl>
        </section>
      ) : null}
      <form className="checkout-form" onSubmit={submit} aria-busy={submitting}>
        <AddressFieldset id="shipping" legend="Shipping address" nameLabel="Recipient name" value={shipping} onChange={setShipping} />
        <AddressFieldset id="billing" legend="Billing address" nameLabel="Card owner name" value={billing} onChange={setBilling} />
        <fieldset className="checkout-fieldset">
          <legend>Card details</legend>
          <CardField config={config} onReady={onCardReady} />
        </fieldset>
        {failure ? (
          <p className="bs-error" role="alert">
            {failure}
          </p>
        ) : null}
        <div className="checkout-actions">
          <button type="submit" className="checkout-pay" disabled={submitting}>
            {mode === 'deposit' ? `Pay deposit of ${formatPrice(amountCents)}` : `Pay ${formatPrice(amountCents)}`}
          </button>
          {submitting ? (
            <span className="checkout-muted" role="status">
              Processing your payment…
            </span>
          ) : null}
        </div>
      </form>
    </section>
  );
}
