import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { useStore } from '@nanostores/react';
import { Navigate } from 'react-router-dom';
import { $cartTotalCents, formatPrice, type NamedAddress } from '@boatshop/state';
import type { CardPaymentMethod } from '../payments/card-payment';
import { CartNotices } from '../components/cart-notices';
import { CardField } from '../payments/card-field';
import { $checkout, $paymentConfig, loadPaymentConfig, payForCart, resetCheckout } from '../payments/checkout';
import { COUNTRIES, regionsOf } from '../payments/countries';
import '../styles.css';

/** SPEC §9: a cart below 1 EUR is not payable; the shopper is sent to the dashboard. */
const MIN_TOTAL_CENTS = 100;

const EMPTY_ADDRESS: NamedAddress = { name: '', address: { line1: '', city: '', state: '', postal_code: '', country: '' } };

function isFilled(value: NamedAddress): boolean {
  return [value.name, ...Object.values(value.address)].every((field) => field.trim() !== '');
}

interface AddressFieldsetProps {
  id: 'shipping' | 'billing';
  legend: string;
  nameLabel: string;
  value: NamedAddress;
  onChange: (value: NamedAddress) => void;
}

function AddressFieldset({ id, legend, nameLabel, value, onChange }: AddressFieldsetProps) {
  const setName = (name: string) => onChange({ ...value, name });
  const setAddress = (changes: Partial<NamedAddress['address']>) => onChange({ ...value, address: { ...value.address, ...changes } });
  const regions = regionsOf(value.address.country);
  const fieldId = (field: string) => `checkout-${id}-${field}`;
  // The autofill section ("shipping" or "billing") and the field's token, e.g. "billing postal-code".
  const autofill = (token: string) => `${id} ${token}`;

  return (
    <fieldset className="checkout-fieldset">
      <legend>{legend}</legend>
      <div className="checkout-field checkout-field--wide">
        <label htmlFor={fieldId('name')}>{nameLabel}</label>
        <input
          id={fieldId('name')}
          autoComplete={id === 'shipping' ? 'shipping name' : 'billing cc-name'}
          required
          value={value.name}
          onChange={(event) => setName(event.target.value)}
        />
      </div>
      <div className="checkout-field checkout-field--wide">
        <label htmlFor={fieldId('line1')}>Street</label>
        <input
          id={fieldId('line1')}
          autoComplete={autofill('address-line1')}
          required
          value={value.address.line1}
          onChange={(event) => setAddress({ line1: event.target.value })}
        />
      </div>
      <div className="checkout-field">
        <label htmlFor={fieldId('city')}>City</label>
        <input
          id={fieldId('city')}
          autoComplete={autofill('address-level2')}
          required
          value={value.address.city}
          onChange={(event) => setAddress({ city: event.target.value })}
        />
      </div>
      <div className="checkout-field">
        <label htmlFor={fieldId('postal-code')}>Postal code</label>
        <input
          id={fieldId('postal-code')}
          autoComplete={autofill('postal-code')}
          required
          value={value.address.postal_code}
          onChange={(event) => setAddress({ postal_code: event.target.value })}
        />
      </div>
      <div className="checkout-field">
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
      <div className="checkout-field">
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

export default function Payment() {
  const totalCents = useStore($cartTotalCents);
  const checkout = useStore($checkout);
  const paymentConfig = useStore($paymentConfig);
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

  if (checkout.status === 'paid') {
    return <Navigate to={`/order/${checkout.orderId}`} state={{ paymentReceived: true }} replace />;
  }
  if (totalCents < MIN_TOTAL_CENTS) return <Navigate to="/dashboard" replace />;

  const submitting = checkout.status === 'submitting';

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    // SPEC §5: until every field is filled, Pay now does nothing at all.
    if (!card.current || !isFilled(shipping) || !isFilled(billing) || !card.current.isComplete()) return;
    void payForCart({ shipping, billing, card: card.current });
  }

  return (
    <section className="checkout-page" aria-labelledby="checkout-payment-title">
      <h1 id="checkout-payment-title">Payment</h1>
      <p className="checkout-amount">
        Amount to pay: <strong>{formatPrice(totalCents)}</strong>
      </p>
      {/* After "prices changed" the refreshed cart's notices say which line changed and how. */}
      <CartNotices />
      <form className="checkout-form" onSubmit={submit} aria-busy={submitting}>
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
            <p className="checkout-error">{paymentConfig.message}</p>
          )}
        </fieldset>
        {checkout.status === 'failed' ? (
          <p className="checkout-error" role="alert">
            {checkout.message}
          </p>
        ) : null}
        <div className="checkout-actions">
          <button type="submit" className="checkout-pay" disabled={submitting || paymentConfig.status !== 'ready'}>
            Pay now
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
