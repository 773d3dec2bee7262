import { useState } from 'react';
import { useStore } from '@nanostores/react';
import { Link } from 'react-router-dom';
import type { Product } from '@boatshop/contract';
import { $session } from '@boatshop/state';
import { bookViewing, loadViewingSlots, slotsByDay, type BookedViewing, type ViewingSlots } from '../viewings/book-viewing';
import './ask-question.css';

/** Days of slots shown at once: a week of the marina's opening days. */
const DAYS_SHOWN = 7;

/**
 * "Book a viewing" on the product page: the free times at the boat's marina, on the marina's own
 * clock, as the shop set them. Booking needs an account (the confirmation and its calendar
 * invitation go to its e-mail); someone taking the time first is said so, with the times left.
 */
export function BookViewing({ product }: { product: Product }) {
  const { user } = useStore($session);
  const [open, setOpen] = useState(false);
  const [slots, setSlots] = useState<ViewingSlots | null>(null);
  const [problem, setProblem] = useState('');
  const [chosen, setChosen] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [booked, setBooked] = useState<BookedViewing | null>(null);

  async function load() {
    setOpen(true);
    const answer = await loadViewingSlots(product.id);
    if ('problem' in answer) setProblem(answer.problem);
    else setSlots(answer);
  }

  async function book() {
    if (!chosen) return;
    setBusy(true);
    const answer = await bookViewing(product.id, chosen);
    setBusy(false);
    if ('problem' in answer) {
      setProblem(answer.problem);
      setChosen(null);
      const fresh = await loadViewingSlots(product.id);
      if (!('problem' in fresh)) setSlots(fresh);
      return;
    }
    setBooked(answer);
  }

  if (booked) {
    return (
      <p className="catalog-enquiry-sent" role="status">
        Your viewing is booked for {booked.label} at {booked.place.marina}. The confirmation and a calendar invitation are on their way to
        your e-mail. <Link to={`/viewings/${booked.id}`}>Reschedule or cancel</Link>
      </p>
    );
  }
  if (!open) {
    return (
      <button type="button" className="catalog-button catalog-button--secondary" onClick={() => void load()}>
        Book a viewing
      </button>
    );
  }
  const chosenSlot = slots?.slots.find((slot) => slot.startsAt === chosen);
  return (
    <section className="catalog-enquiry catalog-viewing" aria-labelledby="catalog-viewing-title">
      <h2 id="catalog-viewing-title">Book a viewing</h2>
      {problem ? (
        <p className="catalog-enquiry-problems" role="alert">
          {problem}
        </p>
      ) : null}
      {slots ? (
        <>
          <p>
            At {slots.place.marina}, {slots.place.address}. Times are the marina&apos;s ({slots.place.timeZone}).
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
              {chosenSlot ? `Book the viewing on ${chosenSlot.label}` : 'Choose a time'}
            </button>
          ) : (
            <p>
              <Link to="/login">Sign in</Link> or <Link to="/registration">create an account</Link> to book a viewing.
            </p>
          )}
        </>
      ) : problem ? null : (
        <p role="status">Loading the free times…</p>
      )}
    </section>
  );
}
