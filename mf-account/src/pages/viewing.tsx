import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { ROUTE_PATHS, isApiError, type ResponseOf } from '@boatshop/contract/client';
import { client } from '../api';
import '../styles.css';
import './conversation.css';

type Viewing = ResponseOf<typeof ROUTE_PATHS.viewings.get>;
type Slots = ResponseOf<typeof ROUTE_PATHS.viewings.slots>['slots'];

const messageOf = (error: unknown, fallback: string) =>
  isApiError(error) && error.status > 0 && error.status < 500 ? error.message : fallback;

/**
 * /viewings/:viewingID, the link of the viewing's e-mails: when and where, and the actions
 * reschedule (to another free time at the marina) and cancel.
 */
export default function ViewingPage() {
  const { viewingID = '' } = useParams();
  const [viewing, setViewing] = useState<Viewing | null>(null);
  const [missing, setMissing] = useState(false);
  const [slots, setSlots] = useState<Slots | null>(null);
  const [chosen, setChosen] = useState('');
  const [problem, setProblem] = useState('');
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    client
      .request(ROUTE_PATHS.viewings.get, { params: { id: viewingID } })
      .then(setViewing)
      .catch(() => setMissing(true));
  }, [viewingID]);

  if (missing) {
    return (
      <section className="account-page" aria-labelledby="account-viewing-title">
        <h1 id="account-viewing-title">Viewing not found</h1>
        <Link to="/messages">Your messages</Link>
      </section>
    );
  }
  if (!viewing) {
    return (
      <section className="account-page" aria-busy="true">
        <p className="account-muted" role="status">
          Loading…
        </p>
      </section>
    );
  }

  async function act(run: () => Promise<Viewing>) {
    setBusy(true);
    setProblem('');
    try {
      setViewing(await run());
      setSlots(null);
      setChosen('');
    } catch (error) {
      setProblem(messageOf(error, 'That did not work. Please try again.'));
    }
    setBusy(false);
  }

  async function showSlots() {
    if (!viewing?.productId) return;
    try {
      setSlots((await client.request(ROUTE_PATHS.viewings.slots, { query: { productId: viewing.productId, kind: viewing.kind } })).slots);
    } catch (error) {
      setProblem(messageOf(error, 'The free times could not be loaded.'));
    }
  }

  const booked = viewing.status === 'booked';
  return (
    <section className="account-page" aria-labelledby="account-viewing-title">
      <h1 id="account-viewing-title">
        {viewing.kind === 'sea_trial' ? 'Sea trial' : 'Viewing'} of the {viewing.productName}
      </h1>
      <dl className="account-viewing">
        <div>
          <dt>When</dt>
          <dd>
            {viewing.label} ({viewing.place.timeZone} time)
          </dd>
        </div>
        <div>
          <dt>Where</dt>
          <dd>
            {viewing.place.marina}, {viewing.place.address}
          </dd>
        </div>
        <div>
          <dt>Status</dt>
          <dd>{booked ? 'Booked' : 'Cancelled'}</dd>
        </div>
      </dl>
      {problem ? (
        <p className="bs-error" role="alert">
          {problem}
        </p>
      ) : null}
      {booked ? (
        <p>
          <button type="button" className="bs-button" disabled={busy} onClick={() => void showSlots()}>
            Reschedule
          </button>{' '}
          <button
            type="button"
            className="bs-button"
            disabled={busy}
            onClick={() => void act(() => client.request(ROUTE_PATHS.viewings.cancel, { params: { id: viewing.id } }))}
          >
            Cancel the {viewing.kind === 'sea_trial' ? 'sea trial' : 'viewing'}
          </button>
        </p>
      ) : null}
      {booked && slots ? (
        <form
          className="account-reply"
          onSubmit={(event) => {
            event.preventDefault();
            if (chosen)
              void act(() => client.request(ROUTE_PATHS.viewings.reschedule, { params: { id: viewing.id }, body: { startsAt: chosen } }));
          }}
        >
          <label>
            New time ({viewing.place.timeZone})
            <select value={chosen} onChange={(event) => setChosen(event.target.value)} required>
              <option value="">Choose a time</option>
              {slots.map((slot) => (
                <option key={slot.startsAt} value={slot.startsAt}>
                  {slot.label}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" className="bs-button" disabled={busy || !chosen}>
            Move the {viewing.kind === 'sea_trial' ? 'sea trial' : 'viewing'}
          </button>
        </form>
      ) : null}
      {viewing.leadId ? (
        <p>
          <Link to={`/messages/${viewing.leadId}`}>The conversation about this boat</Link>
        </p>
      ) : null}
    </section>
  );
}
