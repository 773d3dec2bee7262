import { useEffect, useMemo, useRef } from 'react';
import { CardElement, Elements, useElements, useStripe } from '@stripe/react-stripe-js';
import { loadStripe } from '@stripe/stripe-js/pure';
import type { NamedAddress } from '@boatshop/contract';
import type { CardFieldProps } from './card-payment';

const DECLINED = 'Your card was declined.';

function billingDetails(billing: NamedAddress) {
  const { address } = billing;
  return {
    name: billing.name,
    address: {
      line1: address.line1,
      city: address.city,
      state: address.state,
      postal_code: address.postal_code,
      country: address.country,
    },
  };
}

function StripeCardInner({ onReady }: Pick<CardFieldProps, 'onReady'>) {
  const stripe = useStripe();
  const elements = useElements();
  const complete = useRef(false);

  useEffect(() => {
    if (!stripe || !elements) return undefined;
    onReady({
      isComplete: () => complete.current,
      async confirm(clientSecret, billing) {
        const card = elements.getElement(CardElement);
        if (!card) return { ok: false, message: DECLINED };
        const result = await stripe.confirmCardPayment(clientSecret, {
          payment_method: { card, billing_details: billingDetails(billing) },
        });
        if (result.error) return { ok: false, message: result.error.message ?? DECLINED };
        return result.paymentIntent?.status === 'succeeded' ? { ok: true } : { ok: false, message: DECLINED };
      },
    });
    return () => onReady(null);
  }, [stripe, elements, onReady]);

  return (
    <div className="bs-field checkout-field checkout-field--wide">
      <span id="checkout-stripe-card-label">Card details</span>
      <div className="bs-input" aria-labelledby="checkout-stripe-card-label" role="group">
        <CardElement
          options={{ hidePostalCode: true }}
          onChange={(event) => {
            complete.current = event.complete;
          }}
        />
      </div>
    </div>
  );
}

/** Stripe Elements: loaded only when the API names provider 'stripe', so offline pages never fetch js.stripe.com. */
export default function StripeCardField({ publishableKey, onReady }: CardFieldProps) {
  const stripePromise = useMemo(
    () =>
      loadStripe(publishableKey).catch((error: unknown) => {
        // A card script that fails to load is a console warning only.
        console.warn('The card script could not be loaded', error);
        return null;
      }),
    [publishableKey],
  );
  return (
    <Elements stripe={stripePromise}>
      <StripeCardInner onReady={onReady} />
    </Elements>
  );
}
