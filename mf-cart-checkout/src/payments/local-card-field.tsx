import { useEffect, useRef, useState } from 'react';
import type { CardFieldProps } from './card-payment';
import { confirmWithLocalStandIn, type CardInput } from './local-card-confirm';

/**
 * The card field offline: number, expiry and CVC as plain labelled inputs (no postal code, as
 * with Stripe's card element), confirmed against the Stripe stand-in at `localApiBase`.
 */
export function LocalCardField({ publishableKey, localApiBase, onReady }: CardFieldProps & { localApiBase: string }) {
  const [card, setCard] = useState<CardInput>({ number: '', expiry: '', cvc: '' });
  // The method handed to the page reads the inputs at the moment of paying.
  const cardRef = useRef(card);
  cardRef.current = card;

  useEffect(() => {
    onReady({
      isComplete: () => Object.values(cardRef.current).every((value) => value.trim() !== ''),
      confirm: (clientSecret, billing) =>
        confirmWithLocalStandIn({ localApiBase, publishableKey }, clientSecret, cardRef.current, billing),
    });
    return () => onReady(null);
  }, [localApiBase, publishableKey, onReady]);

  const update = (key: keyof CardInput) => (event: React.ChangeEvent<HTMLInputElement>) =>
    setCard((current) => ({ ...current, [key]: event.target.value }));

  return (
    <div className="checkout-card">
      <div className="checkout-field checkout-field--wide">
        <label htmlFor="checkout-card-number">Card number</label>
        <input
          id="checkout-card-number"
          name="cardNumber"
          inputMode="numeric"
          autoComplete="cc-number"
          placeholder="1234 1234 1234 1234"
          maxLength={23}
          required
          value={card.number}
          onChange={update('number')}
        />
      </div>
      <div className="checkout-field">
        <label htmlFor="checkout-card-expiry">Expiry date (MM/YY)</label>
        <input
          id="checkout-card-expiry"
          name="cardExpiry"
          inputMode="numeric"
          autoComplete="cc-exp"
          placeholder="MM/YY"
          maxLength={7}
          required
          value={card.expiry}
          onChange={update('expiry')}
        />
      </div>
      <div className="checkout-field">
        <label htmlFor="checkout-card-cvc">CVC</label>
        <input
          id="checkout-card-cvc"
          name="cardCvc"
          inputMode="numeric"
          autoComplete="cc-csc"
          placeholder="123"
          maxLength={4}
          required
          value={card.cvc}
          onChange={update('cvc')}
        />
      </div>
    </div>
  );
}
