import { useEffect, useRef, useState } from 'react';
import type { CardFieldProps } from './card-payment';
import { confirmWithLocalStandIn, type CardInput } from './local-card-confirm';

/** The three inputs, as Stripe's card element asks for them (ids checkout-card-number/expiry/cvc). */
const CARD_INPUTS: {
  key: keyof CardInput;
  label: string;
  name: string;
  autoComplete: string;
  placeholder: string;
  maxLength: number;
  wide?: boolean;
}[] = [
  {
    key: 'number',
    label: 'Card number',
    name: 'cardNumber',
    autoComplete: 'cc-number',
    placeholder: '1234 1234 1234 1234',
    maxLength: 23,
    wide: true,
  },
  { key: 'expiry', label: 'Expiry date (MM/YY)', name: 'cardExpiry', autoComplete: 'cc-exp', placeholder: 'MM/YY', maxLength: 7 },
  { key: 'cvc', label: 'CVC', name: 'cardCvc', autoComplete: 'cc-csc', placeholder: '123', maxLength: 4 },
];

const EMPTY_CARD: CardInput = { number: '', expiry: '', cvc: '' };

/**
 * The card field offline: number, expiry and CVC as plain labelled inputs (no postal code, as
 * with Stripe's card element), confirmed against the Stripe stand-in at `localApiBase`.
 */
export function LocalCardField({ publishableKey, localApiBase, onReady }: CardFieldProps & { localApiBase: string }) {
  const [card, setCard] = useState<CardInput>(EMPTY_CARD);
  // The method handed to the page reads the inputs at the moment of paying: the ref is written
  // where the inputs change (never while rendering), the state renders them.
  const cardRef = useRef(card);
  const change = (key: keyof CardInput, value: string) => {
    cardRef.current = { ...cardRef.current, [key]: value };
    setCard(cardRef.current);
  };

  useEffect(() => {
    onReady({
      isComplete: () => Object.values(cardRef.current).every((value) => value.trim() !== ''),
      confirm: (clientSecret, billing) => confirmWithLocalStandIn({ localApiBase, publishableKey }, clientSecret, cardRef.current, billing),
    });
    return () => onReady(null);
  }, [localApiBase, publishableKey, onReady]);

  return (
    <div className="checkout-card">
      {CARD_INPUTS.map(({ key, label, wide, ...input }) => (
        <div key={key} className={wide ? 'bs-field checkout-field checkout-field--wide' : 'bs-field checkout-field'}>
          <label htmlFor={`checkout-card-${key}`}>{label}</label>
          <input
            id={`checkout-card-${key}`}
            inputMode="numeric"
            required
            {...input}
            value={card[key]}
            onChange={(event) => change(key, event.target.value)}
          />
        </div>
      ))}
    </div>
  );
}
