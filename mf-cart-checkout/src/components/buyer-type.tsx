import { useEffect, useState } from 'react';
import { useStore } from '@nanostores/react';
import type { BuyerType as BuyerKind } from '@boatshop/contract';
import { formatPrice } from '@boatshop/state';
import { $buyerCheck, checkBuyer, resetBuyerCheck } from '../payments/buyer-check';

/**
 * Private or business: a business gives its VAT ID, which the API checks with VIES. The VAT that
 * applies and the amount to pay come from the API; without a confirmed VAT ID VAT is charged.
 */
export function BuyerType({ country }: { country: string }) {
  const [kind, setKind] = useState<BuyerKind>('consumer');
  const [vatId, setVatId] = useState('');
  const state = useStore($buyerCheck);

  // A new choice or country voids the previous answer; a private buyer pays the prices shown.
  useEffect(() => resetBuyerCheck(), [kind, country]);
  useEffect(() => resetBuyerCheck, []);

  const check = state.status === 'checked' ? state.check : null;
  const exempt = check !== null && check.lines.every((line) => line.vatCase !== 'standard') && check.vatCents === 0;

  return (
    <fieldset className="checkout-fieldset checkout-buyer">
      <legend>Buying as</legend>
      <label htmlFor="checkout-buyer-kind">I buy as</label>
      <select id="checkout-buyer-kind" value={kind} onChange={(event) => setKind(event.target.value as BuyerKind)}>
        <option value="consumer">A private person</option>
        <option value="business">A business (VAT ID)</option>
      </select>
      {kind === 'consumer' && (
        <p className="checkout-muted">
          Prices include VAT, except where a sale to your country is exempt here (a new boat delivered to another EU country, or outside the
          EU): the amount above is then without VAT.
        </p>
      )}
      {kind === 'business' && (
        <div className="bs-field checkout-field checkout-field--wide">
          <label htmlFor="checkout-vat-id">VAT ID</label>
          <input id="checkout-vat-id" value={vatId} onChange={(event) => setVatId(event.target.value)} placeholder="FR12345678901" />
          <button
            type="button"
            className="bs-button"
            disabled={!country || vatId.trim() === '' || state.status === 'checking'}
            onClick={() => void checkBuyer('business', country, vatId)}
          >
            Check VAT ID
          </button>
          {!country && <p className="checkout-muted">Choose the shipping country first.</p>}
        </div>
      )}
      {state.status === 'checking' && (
        <p className="checkout-muted" role="status">
          Checking…
        </p>
      )}
      {state.status === 'failed' && (
        <p className="bs-error" role="alert">
          {state.message}
        </p>
      )}
      {check && (
        <div role="status" className="checkout-vat">
          {check.buyerType === 'business' && check.vies === 'valid' && (
            <p>
              VAT ID {check.vatId} confirmed by VIES{check.consultationNumber ? ` (consultation ${check.consultationNumber})` : ''}.
            </p>
          )}
          {check.vies === 'invalid' && <p>VIES says this VAT ID is not valid: VAT is charged.</p>}
          {check.vies === 'unavailable' && (
            <p>VIES cannot confirm the VAT ID right now: VAT is charged (we refund it by credit note once confirmed).</p>
          )}
          <p>
            {exempt ? 'Price without VAT' : 'Price including VAT'}: <strong>{formatPrice(check.totalCents)}</strong>
            {check.vatCents > 0 ? ` (of which VAT ${formatPrice(check.vatCents)})` : ''}
          </p>
          {[...new Set(check.lines.map((line) => line.wording).filter(Boolean))].map((wording) => (
            <p key={wording} className="checkout-muted">
              {wording}
            </p>
          ))}
        </div>
      )}
    </fieldset>
  );
}
