import { useEffect, useState, type FormEvent } from 'react';
import { useStore } from '@nanostores/react';
import { Link } from 'react-router-dom';
import { OFFER_CONDITIONS_MAX_LENGTH } from '@boatshop/contract/constants';
import { formatDay, formatPrice } from '@boatshop/state';
import { useCan } from '../staff/use-can';
import {
  $leadOffers,
  answerCounter,
  loadLeadOffers,
  offerProblem,
  parseDay,
  parseEuroCents,
  sendOffer,
  type LeadOffer,
} from './lead-offers';

/** The staff's words for where an offer stands. */
function offerStateName(offer: LeadOffer): string {
  if (offer.orderId) return 'Ordered';
  if (offer.expired && offer.state !== 'declined') return 'Expired';
  return { sent: 'Waiting for the buyer', countered: 'Counter-offer to answer', accepted: 'Accepted', declined: 'Declined' }[offer.state];
}

/** Today plus two weeks as DD/MM/YYYY: the form's first suggestion for the last valid day. */
function inTwoWeeks(): string {
  const day = new Date(Date.now() + 14 * 24 * 60 * 60 * 1000);
  return `${String(day.getDate()).padStart(2, '0')}/${String(day.getMonth() + 1).padStart(2, '0')}/${day.getFullYear()}`;
}

function OfferCard({ offer, canWrite }: { offer: LeadOffer; canWrite: boolean }) {
  const [busy, setBusy] = useState(false);
  const answer = async (accept: boolean) => {
    setBusy(true);
    await answerCounter(offer.leadId, offer.id, accept);
    setBusy(false);
  };
  return (
    <li className="admin-offer" data-testid="admin-offer">
      <p>
        <strong>{formatPrice(offer.priceCents)}</strong> · valid until {formatDay(offer.validUntil)} ·{' '}
        <span className="admin-badge">{offerStateName(offer)}</span>
        {offer.boatHeld ? <span className="admin-muted"> · boat held for the buyer</span> : null}
      </p>
      {offer.conditions ? <p className="admin-message__body">{offer.conditions}</p> : null}
      {offer.counterPriceCents !== null ? (
        <p>
          Counter-offer: <strong>{formatPrice(offer.counterPriceCents)}</strong>
          {offer.counterMessage ? ` (“${offer.counterMessage}”)` : ''}
        </p>
      ) : null}
      {offer.agreedPriceCents !== null ? <p>Agreed price: {formatPrice(offer.agreedPriceCents)}</p> : null}
      {offer.orderId ? (
        <p>
          <Link to={`/admin/orders/${offer.orderId}`}>Open the order</Link>
        </p>
      ) : null}
      {canWrite && offer.state === 'countered' && !offer.expired ? (
        <p className="admin-offer__actions">
          <button type="button" className="bs-button" disabled={busy} onClick={() => void answer(true)}>
            Accept counter-offer
          </button>{' '}
          <button type="button" className="bs-button bs-button--secondary" disabled={busy} onClick={() => void answer(false)}>
            Decline counter-offer
          </button>
        </p>
      ) : null}
    </li>
  );
}

/**
 * A lead's offers and the form that sends one: price in euros (VAT included), the last day it
 * is valid (DD/MM/YYYY), conditions. The API checks everything again and sends the e-mail.
 */
export function LeadOffers({ leadId }: { leadId: string }) {
  const canWrite = useCan()('offers.write');
  const { offers, error } = useStore($leadOffers);
  const [price, setPrice] = useState('');
  const [validUntil, setValidUntil] = useState(inTwoWeeks);
  const [conditions, setConditions] = useState('');
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    void loadLeadOffers(leadId);
  }, [leadId]);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const priceCents = parseEuroCents(price);
    const day = parseDay(validUntil);
    if (priceCents === null || priceCents <= 0) return offerProblem('Please give the price in euros, e.g. 2.750.000,00.');
    if (!day) return offerProblem('Please give the last valid day as DD/MM/YYYY.');
    setBusy(true);
    if (await sendOffer(leadId, { priceCents, validUntil: day, conditions })) {
      setPrice('');
      setConditions('');
    }
    setBusy(false);
  }

  return (
    <section className="admin-offers" aria-labelledby="admin-offers-title">
      <h2 id="admin-offers-title">Offers</h2>
      {error ? (
        <p className="bs-error" role="alert">
          {error}
        </p>
      ) : null}
      {offers.length > 0 ? (
        <ul className="admin-offers__list">
          {offers.map((offer) => (
            <OfferCard key={offer.id} offer={offer} canWrite={canWrite} />
          ))}
        </ul>
      ) : (
        <p className="admin-muted">No offer sent yet.</p>
      )}
      {canWrite ? (
        <form className="admin-lead-action admin-offer-form" onSubmit={submit} aria-label="Send an offer">
          <label>
            Price in euros (VAT included)
            <input
              value={price}
              onChange={(event) => setPrice(event.target.value)}
              placeholder="2.750.000,00"
              inputMode="decimal"
              required
            />
          </label>
          <label>
            Valid until (DD/MM/YYYY)
            <input value={validUntil} onChange={(event) => setValidUntil(event.target.value)} required />
          </label>
          <label>
            Conditions
            <textarea
              value={conditions}
              onChange={(event) => setConditions(event.target.value)}
              rows={3}
              maxLength={OFFER_CONDITIONS_MAX_LENGTH}
            />
          </label>
          <button type="submit" className="bs-button" disabled={busy}>
            Send offer
          </button>
        </form>
      ) : null}
    </section>
  );
}
