import { useState, type FormEvent } from 'react';
import { useStore } from '@nanostores/react';
import { Link } from 'react-router-dom';
import type { Product } from '@boatshop/contract';
import { $session } from '@boatshop/state';
import {
  bookViewing,
  bookViewingAsGuest,
  loadViewingSlots,
  slotsByDay,
  type BookedViewing,
  type ViewingKind,
  type ViewingSlots,
} from '../viewings/book-viewing';
import './ask-question.css';

/** Days of slots shown at once: a week of the marina's opening days. */
const DAYS_SHOWN = 7;

const WORD: Record<ViewingKind, string> = { viewing: 'viewing', sea_trial: 'sea trial' };

/** "2 h 30 min", "60 minutes": how long a booking takes. */
function duration(minutes: number): string {
  if (minutes < 120) return `${minutes} minutes`;
  const rest = minutes % 60;
  return rest ? `${Math.floor(minutes / 60)} h ${rest} min` : `${minutes / 60} hours`;
}

/**
 * "Book a viewing" on the product page: the free times at the boat's marina, on the marina's own
 * clock, as the shop set them; a sea trial too for the boats the shop allows it, with the
 * marina's sea trial length. A signed-in shopper books at once; a guest gives a name and an
 * e-mail address and confirms by the e-mailed link (the time is held meanwhile). Someone taking
 * the time first is said so, with the times left.
 */
export function BookViewing({ product }: { product: Product }) {
  const { user } = useStore($session);
  const [open, setOpen] = useState(false);
  const [kind, setKind] = useState<ViewingKind>('viewing');
  const [slots, setSlots] = useState<ViewingSlots | null>(null);
  const [problem, setProblem] = useState('');
  const [chosen, setChosen] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [booked, setBooked] = useState<BookedViewing | null>(null);
  const [held, setHeld] = useState<{ label: string; minutes: number } | null>(null);

  async function load(of: ViewingKind) {
    setOpen(true);
    setKind(of);
    setChosen(null);
    const answer = await loadViewingSlots(product.id, of);
    if ('problem' in answer) setProblem(answer.problem);
    else setSlots(answer);
  }

  async function refused(message: string) {
    setProblem(message);
    setChosen(null);
    const fresh = await loadViewingSlots(product.id, kind);
    if (!('problem' in fresh)) setSlots(fresh);
  }

  async function book() {
    if (!chosen) return;
    setBusy(true);
    const answer = await bookViewing(product.id, chosen, kind);
    setBusy(false);
    if ('problem' in answer) await refused(answer.problem);
    else setBooked(answer);
  }

  async function bookAsGuest(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!chosen) return;
    const form = new FormData(event.currentTarget);
    const field = (name: string) => String(form.get(name) ?? '');
    setBusy(true);
    const answer = await bookViewingAsGuest({
      productId: product.id,
      startsAt: chosen,
      kind,
      name: field('name'),
      email: field('email'),
      website: field('website'),
    });
    setBusy(false);
    if ('problem' in answer) await refused(answer.problem);
    else {
      setHeld({
        label: slots?.slots.find((slot) => slot.startsAt === chosen)?.label ?? '',
        minutes: Math.max(1, Math.round((Date.parse(answer.heldUntil) - Date.now()) / 60_000)),
      });
    }
  }

  if (booked) {
    return (
      <p className="catalog-enquiry-sent" role="status">
        Your {WORD[booked.kind]} is booked for {booked.label} at {booked.place.marina}. The confirmation and a calendar invitation are on
        their way to your e-mail. <Link to={`/viewings/${booked.id}`}>Reschedule or cancel</Link>
      </p>
    );
  }
  if (held !== null) {
    return (
      <p className="catalog-enquiry-sent" role="status">
        Almost done: we sent you an e-mail. Open its link to confirm your {WORD[kind]} on {held.label}; we hold the time for you for{' '}
        {held.minutes} minutes.
      </p>
    );
  }
  if (!open) {
    return (
      <button type="button" className="catalog-button catalog-button--secondary" onClick={() => void load('viewing')}>
        Book a viewing
      </button>
    );
  }
  const chosenSlot = slots?.slots.find((slot) => slot.startsAt === chosen);
  const action = chosenSlot ? `Book the ${WORD[kind]} on ${chosenSlot.label}` : 'Choose a time';
  return (
    <section className="catalog-enquiry catalog-viewing" aria-labelledby="catalog-viewing-title">
      <h2 id="catalog-viewing-title">Book a viewing</h2>
      {slots?.seaTrials ? (
        <fieldset className="catalog-viewing-kind">
          <legend>What would you like?</legend>
          <label>
            <input type="radio" name="viewing-kind" checked={kind === 'viewing'} onChange={() => void load('viewing')} />A viewing at the
            berth
          </label>
          <label>
            <input type="radio" name="viewing-kind" checked={kind === 'sea_trial'} onChange={() => void load('sea_trial')} />A sea trial
            (the boat sailed)
          </label>
        </fieldset>
      ) : null}
      {problem ? (
        <p className="catalog-enquiry-problems" role="alert">
          {problem}
        </p>
      ) : null}
      {slots ? (
        <>
          <p>
            At {slots.place.marina}, {slots.place.address}. A {WORD[slots.kind]} takes {duration(slots.minutes)}. Times are the
            marina&apos;s ({slots.place.timeZone}).
          </p>
          {slots.slots.length === 0 ? <p>No time is free in the coming weeks; please ask a question instead.</p> : null}
          {slotsByDay(slots.slots)
            .slice(0, DAYS_SHOWN)
            .map(([day, daySlots]) => (
              <fieldset key={day} className="catalog-viewing-day">
                <legend>{day}</legend>
                {daySlots.map((slot) => (
                  <label key={slot.startsAt} className="catalog-viewing-slot">
                    <input
                      type="radio"
                      name="viewing-slot"
                      value={slot.startsAt}
                      checked={chosen === slot.startsAt}
                      onChange={() => setChosen(slot.startsAt)}
                    />
                    {slot.label.slice(11)}
                  </label>
                ))}
              </fieldset>
            ))}
          {user ? (
            <button type="button" className="catalog-button" disabled={!chosenSlot || busy} onClick={() => void book()}>
              {action}
            </button>
          ) : (
            <form className="catalog-viewing-guest" onSubmit={(event) => void bookAsGuest(event)}>
              <p>
                <Link to="/login">Sign in</Link> to book at once, or give your name and e-mail: we send you a link to confirm the booking.
              </p>
              <label>
                Your name
                <input name="name" autoComplete="name" required maxLength={100} />
              </label>
              <label>
                Your e-mail
                <input name="email" type="email" autoComplete="email" required maxLength={254} />
              </label>
              <label className="catalog-enquiry-trap" aria-hidden="true">
                Website
                <input name="website" tabIndex={-1} autoComplete="off" />
              </label>
              <button type="submit" className="catalog-button" disabled={!chosenSlot || busy}>
                {action}
              </button>
            </form>
          )}
        </>
      ) : problem ? null : (
        <p role="status">Loading the free times…</p>
      )}
    </section>
  );
}
