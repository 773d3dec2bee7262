import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { useStore } from '@nanostores/react';
import { Navigate } from 'react-router-dom';
import type { NamedAddress, PaymentQuote } from '@boatshop/contract';
import { $cart, $cartTotalCents, formatPrice } from '@boatshop/state';
import type { CardPaymentMethod } from '../payments/card-payment';
import { BuyerType } from '../components/buyer-type';
import { $buyerCheck } from '../payments/buyer-check';
import { CartNotices } from '../components/cart-notices';
import { SavedAddresses } from '../components/saved-addresses';
import { CardField } from '../payments/card-field';
import {
  $checkout,
  $depositChosen,
  $paymentConfig,
  $paymentQuote,
  chooseDeposit,
  loadPaymentConfig,
  loadPaymentQuote,
  payForCart,
  paymentModeOf,
  resetCheckout,
} from '../payments/checkout';
import { COUNTRIES, regionsOf } from '@boatshop/web-shared/countries';
import '../styles.css';

/** A cart below 1 EUR is not payable; the shopper is sent to the dashboard. */
const MIN_TOTAL_CENTS = 100;

export const EMPTY_ADDRESS: NamedAddress = { name: '', address: { line1: '', city: '', state: '', postal_code: '', country: '' } };

export function isFilled(value: NamedAddress): boolean {
  return [value.name, ...Object.values(value.address)].every((field) => field.trim() !== '');
}

interface AddressFieldsetProps {
  id: 'shipping' | 'billing';
  legend: string;
  nameLabel: string;
  value: NamedAddress;
  onChange: (value: NamedAddress) => void;
}

export function AddressFieldset({ id, legend, nameLabel, value, onChange }: AddressFieldsetProps) {
  const setName = (name: string) => onChange({ ...value, name });
  const setAddress = (changes: Partial<NamedAddress['address']>) => onChange({ ...value, address: { ...value.address, ...changes } });
  const regions = regionsOf(value.address.country);
  const fieldId = (field: string) => `checkout-${id}-${field}`;
  // The autofill section ("shipping" or "billing") and the field's token, e.g. "billing postal-code".
  const autofill = (token: string) => `${id} ${token}`;

  return (
    <fieldset className="checkout-fieldset">
      <legend>{legend}</legend>
      <div className="bs-field checkout-field checkout-field--wide">
        <label htmlFor={fieldId('name')}>{nameLabel}</label>
        <input
          id={fieldId('name')}
          autoComplete={id === 'shipping' ? 'shipping name' : 'billing cc-name'}
          required
          value={value.name}
          onChange={(event) => setName(event.target.value)}
        />
      </div>
      <div className="bs-field checkout-field checkout-field--wide">
        <label htmlFor={fieldId('line1')}>Street</label>
        <input
          id={fieldId('line1')}
          autoComplete={autofill('address-line1')}
          required
          value={value.address.line1}
          onChange={(event) => setAddress({ line1: event.target.value })}
        />
      </div>
      <div className="bs-field checkout-field">
        <label htmlFor={fieldId('city')}>City</label>
        <input
          id={fieldId('city')}
          autoComplete={autofill('address-level2')}
          required
          value={value.address.city}
          onChange={(event) => setAddress({ city: event.target.value })}
        />
      </div>
      <div className="bs-field checkout-field">
        <label htmlFor={fieldId('postal-code')}>Postal code</label>
        <input
          id={fieldId('postal-code')}
          autoComplete={autofill('postal-code')}
          required
          value={value.address.postal_code}
          onChange={(event) => setAddress({ postal_code: event.target.value })}
        />
      </div>
      <div className="bs-field checkout-field">
        <label htmlFor={fieldId('country')}>Country</label>
        <select
          id={fieldId('country')}
          autoComplete={autofill('country')}
          required
          value={value.address.country}
          // A region belongs to one country: a new country starts its region afresh.
          onChange={(event) => setAddress({ country: event.target.value, state: '' })}
        >
          <option value="">Choose a country</option>
          {COUNTRIES.map((country) => (
            <option key={country.code} value={country.code}>
              {country.name}
            </option>
          ))}
        </select>
      </div>
      <div className="bs-field checkout-field">
        <label htmlFor={fieldId('county')}>County</label>
        {regions.length > 0 ? (
          <select
            id={fieldId('county')}
            required
            value={value.address.state}
            onChange={(event) => setAddress({ state: event.target.value })}
          >
            <option value="">Choose a county</option>
            {regions.map((region) => (
              <option key={`${region.value}-${region.label}`} value={region.value}>
                {region.label}
              </option>
            ))}
          </select>
        ) : (
          <input
            id={fieldId('county')}
            autoComplete={autofill('address-level1')}
            required
            value={value.address.state}
            onChange={(event) => setAddress({ state: event.target.value })}
          />
        )}
      </div>
    </fieldset>
  );
}

/**
 * Issue 13: above the card limit (or where the shop offers it) the boat is reserved with a deposit
 * paid by card now, the balance following by bank transfer. Where the deposit is only offered, the
 * shopper picks between it and the full card payment; where it is required, there is no choice.
 */
function DepositOption({ quote, chosen }: { quote: PaymentQuote; chosen: boolean }) {
  const depositCents = quote.depositCents ?? 0;
  const balanceCents = quote.totalCents - depositCents;
  const days = quote.balanceDueDays === 1 ? '1 day' : `${quote.balanceDueDays} days`;
  return (
    <section className="checkout-deposit" aria-labelledby="checkout-deposit-title">
      <h2 id="checkout-deposit-title">Reserve with a deposit</h2>
      {quote.depositRequired ? (
        <p>
          This order comes to {formatPrice(quote.totalCents)}, more than one card payment can carry ({formatPrice(quote.cardLimitCents)}).
          Reserve the boat with a deposit by card; the balance follows by bank transfer.
        </p>
      ) : (
        <fieldset className="checkout-deposit__choice">
          <legend>How would you like to pay?</legend>
          <label>
            <input type="radio" name="checkout-mode" checked={!chosen} onChange={() => chooseDeposit(false)} /> Pay{' '}
            {formatPrice(quote.totalCents)} in full by card
          </label>
          <label>
            <input type="radio" name="checkout-mode" checked={chosen} onChange={() => chooseDeposit(true)} /> Reserve with a deposit of{' '}
            {formatPrice(depositCents)}
          </label>
        </fieldset>
      )}
      <dl className="checkout-deposit__terms">
        <div>
          <dt>Deposit, paid by card now</dt>
          <dd>{formatPrice(depositCents)}</dd>
        </div>
        <div>
          <dt>Balance, due by bank transfer within {days}</dt>
          <dd>{formatPrice(balanceCents)}</dd>
        </div>
      </dl>
      <p className="checkout-muted">
        The boat is reserved for you once the deposit is paid. Your order page and an e-mail then give the bank details and the payment
        reference to quote with the transfer.
      </p>
    </section>
  );
}

export default function Payment() {
  const totalCents = useStore($cartTotalCents);
  const checkout = useStore($checkout);
  const paymentConfig = useStore($paymentConfig);
  const cart = useStore($cart);
  const quote = useStore($paymentQuote);
  const depositChosen = useStore($depositChosen);
  const buyer = useStore($buyerCheck);
  const checkedBuyer = buyer.status === 'checked' ? buyer.check : null;
  const [shipping, setShipping] = useState<NamedAddress>(EMPTY_ADDRESS);
  const [billing, setBilling] = useState<NamedAddress>(EMPTY_ADDRESS);
  const card = useRef<CardPaymentMethod | null>(null);
  const onCardReady = useCallback((method: CardPaymentMethod | null) => {
    card.current = method;
  }, []);

  useEffect(() => {
    void loadPaymentConfig();
    return resetCheckout;
  }, []);

  // Asked again whenever what is bought or what it costs changes (a refresh after "prices changed").
  const cartKey = JSON.stringify([checkedBuyer?.checkId, ...cart.map((item) => [item.productId, item.quantity, item.priceCents])]);
  const shippingCountry = shipping.address.country;
  useEffect(() => {
    void loadPaymentQuote(shippingCountry);
  }, [cartKey, shippingCountry]);

  if (checkout.status === 'paid') {
    return <Navigate to={`/order/${checkout.orderId}`} state={{ paymentReceived: true }} replace />;
  }
  if (totalCents < MIN_TOTAL_CENTS) return <Navigate to="/dashboard" replace />;

  const submitting = checkout.status === 'submitting';
  const mode = paymentModeOf(quote, depositChosen);
  // What is charged: the buyer check's amount, else the quote's for the shipping country (net
  // where the sale is exempt here), else the cart's gross total while the quote loads.
  const amountToPay = checkedBuyer ? checkedBuyer.totalCents : quote.status === 'ready' ? quote.quote.totalCents : totalCents;
  const offered = quote.status === 'ready' && quote.quote.depositOffered && quote.quote.depositCents !== null ? quote.quote : null;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    // Until every field is filled, Pay now does nothing at all.
    if (!card.current || !isFilled(shipping) || !isFilled(billing) || !card.current.isComplete()) return;
    void payForCart({ shipping, billing, card: card.current, mode });
  }

  return (
    <section className="checkout-page" aria-labelledby="checkout-payment-title">
      <h1 id="checkout-payment-title">Payment</h1>
      {mode === 'deposit' && offered ? (
        <p className="checkout-amount">
          Amount to pay now: <strong>{formatPrice(offered.depositCents!)}</strong>{' '}
          <span className="checkout-muted">(deposit on an order of {formatPrice(offered.totalCents)})</span>
        </p>
      ) : (
        <p className="checkout-amount">
          Amount to pay: <strong>{formatPrice(amountToPay)}</strong>
          {amountToPay < totalCents ? <span className="checkout-muted"> (without VAT)</span> : null}
        </p>
      )}
      {offered ? <DepositOption quote={offered} chosen={mode === 'deposit'} /> : null}
      {/* After "prices changed" the refreshed cart's notices say which line changed and how. */}
      <CartNotices />
      <BuyerType country={shipping.address.country} />
      <form className="checkout-form" onSubmit={submit} aria-busy={submitting}>
        <SavedAddresses shipping={shipping} billing={billing} onShipping={setShipping} onBilling={setBilling} />
        <AddressFieldset id="shipping" legend="Shipping address" nameLabel="Recipient name" value={shipping} onChange={setShipping} />
        <AddressFieldset id="billing" legend="Billing address" nameLabel="Card owner name" value={billing} onChange={setBilling} />
        <fieldset className="checkout-fieldset">
          <legend>Card details</legend>
          {paymentConfig.status === 'ready' ? (
            <CardField config={paymentConfig.config} onReady={onCardReady} />
          ) : paymentConfig.status === 'loading' ? (
            <p className="checkout-muted" role="status">
              Loading the card field…
            </p>
          ) : (
            <p className="bs-error">{paymentConfig.message}</p>
          )}
        </fieldset>
        {checkout.status === 'failed' ? (
          <p className="bs-error" role="alert">
            {checkout.message}
          </p>
        ) : null}
        <div className="checkout-actions">
          {/* Until the quote answers, the page cannot tell a full payment from a deposit. */}
          <button
            type="submit"
            className="checkout-pay"
            disabled={submitting || paymentConfig.status !== 'ready' || quote.status === 'loading'}
          >
            {mode === 'deposit' && offered ? `Pay deposit of ${formatPrice(offered.depositCents!)}` : 'Pay now'}
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
