import { useEffect, useState, type FormEvent } from 'react';
import { useStore } from '@nanostores/react';
import { Link, useNavigate } from 'react-router-dom';
import { OFFER_CONDITIONS_MAX_LENGTH } from '@boatshop/contract/constants';
import { formatDay, formatPrice } from '@boatshop/state';
import { $offers, answerOffer, loadOffers, parseEuroCents, type ShopperOffer } from './conversation-offers';

/** Where the offer stands, in the shopper's words. */
function standing(offer: ShopperOffer): string {
  if (offer.orderId) return 'You ordered at this price.';
  if (offer.state === 'declined') return 'You declined this offer.';
  if (offer.expired) return `This offer expired after ${formatDay(offer.validUntil)}.`;
  if (offer.state === 'countered') return 'Your counter-offer is with the shop.';
  if (offer.state === 'accepted') return `Accepted. The boat is held for you until ${formatDay(offer.validUntil)}.`;
  return `Valid until ${formatDay(offer.validUntil)}.`;
}

function OfferCard({ offer }: { offer: ShopperOffer }) {
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [countering, setCountering] = useState(false);
  const [price, setPrice] = useState('');
  const [message, setMessage] = useState('');
  const [problem, setProblem] = useState('');
  const open = offer.state === 'sent' && !offer.expired;
  const payable = offer.state === 'accepted' && !offer.expired && !offer.orderId;

  async function run(answer: Parameters<typeof answerOffer>[1]) {
    setBusy(true);
    const after = await answerOffer(offer, answer);
    setBusy(false);
    // Accepting opens the checkout at the agreed price.
    if (after && answer === 'accept' && after.state === 'accepted') navigate(`/payment/offer/${after.id}`);
    if (after) setCountering(false);
  }

  function counter(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const priceCents = parseEuroCents(price);
    if (priceCents === null) return setProblem('Please give your price in euros, e.g. 2.650.000,00.');
    if (priceCents >= offer.priceCents)
      return setProblem('A counter-offer must be below the offer’s price; to pay that price, accept the offer.');
    setProblem('');
    void run({ priceCents, message: message.trim() });
  }

  return (
    <li className="account-offer" data-testid="offer">
      <p className="account-offer__price">
        The shop offers you the {offer.productName} for <strong>{formatPrice(offer.agreedPriceCents ?? offer.priceCents)}</strong>
        {offer.agreedPriceCents !== null && offer.agreedPriceCents !== offer.priceCents ? ' (your counter-offer, accepted)' : ''}
      </p>
      <p className="account-muted">{standing(offer)}</p>
      {offer.conditions ? <p className="account-offer__conditions">Conditions: {offer.conditions}</p> : null}
      {offer.counterPriceCents !== null && offer.state !== 'accepted' ? (
        <p className="account-muted">
          Your counter-offer: {formatPrice(offer.counterPriceCents)}
          {offer.state === 'sent' ? ' — the shop declined it; its offer stands.' : ''}
        </p>
      ) : null}
      {open ? (
        <p className="account-offer__actions">
          <button type="button" className="bs-button" disabled={busy} onClick={() => void run('accept')}>
            Accept offer
          </button>{' '}
          <button type="button" className="bs-button bs-button--secondary" disabled={busy} onClick={() => void run('decline')}>
            Decline
          </button>{' '}
          {offer.counterPriceCents === null && !countering ? (
            <button type="button" className="bs-button bs-button--secondary" disabled={busy} onClick={() => setCountering(true)}>
              Make a counter-offer
            </button>
          ) : null}
        </p>
      ) : null}
      {open && countering ? (
        <form className="account-offer__counter" onSubmit={counter} aria-label="Counter-offer">
          <p className="account-muted">You can make one counter-offer; the shop accepts or declines it.</p>
          {problem ? (
            <p className="bs-error" role="alert">
              {problem}
            </p>
          ) : null}
          <label>
            Your price in euros
            <input value={price} onChange={(event) => setPrice(event.target.value)} inputMode="decimal" required />
          </label>
          <label>
            Message (optional)
            <textarea
              value={message}
              onChange={(event) => setMessage(event.target.value)}
              rows={2}
              maxLength={OFFER_CONDITIONS_MAX_LENGTH}
            />
          </label>
          <button type="submit" className="bs-button" disabled={busy}>
            Send counter-offer
          </button>
        </form>
      ) : null}
      {payable ? (
        <p>
          <Link className="bs-button" to={`/payment/offer/${offer.id}`}>
            Continue to payment
          </Link>
        </p>
      ) : null}
      {offer.orderId ? (
        <p>
          <Link to={`/order/${offer.orderId}`}>See your order</Link>
        </p>
      ) : null}
    </li>
  );
}

/** The shop's offers in a conversation, with accept, decline and the one counter-offer. */
export function ConversationOffers({ enquiryId }: { enquiryId: string }) {
  const { offers, error, enquiryId: loadedFor } = useStore($offers);
  useEffect(() => {
    void loadOffers(enquiryId);
  }, [enquiryId]);
  if (loadedFor !== enquiryId || (offers.length === 0 && !error)) return null;
  return (
    <section className="account-offers" aria-labelledby="account-offers-title">
      <h2 id="account-offers-title">Offers</h2>
      {error ? (
        <p className="bs-error" role="alert">
          {error}
        </p>
      ) : null}
      <ul className="account-offers__list">
        {offers.map((offer) => (
          <OfferCard key={offer.id} offer={offer} />
        ))}
      </ul>
    </section>
  );
}
