import { useState } from 'react';
import { ROUTE_PATHS, isApiError } from '@boatshop/contract/client';
import { client } from '../api';
import { useCan } from '../staff/use-can';
import { replyToLead } from './admin-leads';

/** The next free times offered in a proposal. */
const PROPOSED_TIMES = 3;

/**
 * "Propose a viewing" on a lead's page: reads the next free times at the boat's marina and puts a
 * proposal in the reply box's place, to edit and send as an answer; the buyer books from the
 * boat's page (the link), so the marina's calendar stays the one judge of who gets a time.
 */
export function ProposeViewing({ leadId, productId, productName }: { leadId: string; productId: string | null; productName: string }) {
  const [draft, setDraft] = useState('');
  const [problem, setProblem] = useState('');
  const [busy, setBusy] = useState(false);
  const canWrite = useCan()('leads.write');
  if (!productId || !canWrite) return null;

  async function prepare() {
    setProblem('');
    try {
      const { place, slots } = await client.request(ROUTE_PATHS.viewings.slots, { query: { productId: productId! } });
      const times = slots.slice(0, PROPOSED_TIMES).map((slot) => slot.label);
      setDraft(
        [
          `We would be glad to show you the ${productName} at ${place.marina} (${place.address}).`,
          times.length > 0 ? `Free times (${place.timeZone}): ${times.join(', ')}.` : '',
          `Book the time that suits you on the boat's page: ${window.location.origin}/product/${productId} ("Book a viewing").`,
        ]
          .filter(Boolean)
          .join('\n'),
      );
    } catch (error) {
      setProblem(isApiError(error) && error.status > 0 && error.status < 500 ? error.message : 'The free times could not be loaded.');
    }
  }

  async function send() {
    setBusy(true);
    if (await replyToLead(leadId, draft)) setDraft('');
    setBusy(false);
  }

  return (
    <section className="admin-offers" aria-labelledby="admin-propose-viewing-title">
      <h2 id="admin-propose-viewing-title">Viewing</h2>
      {problem ? (
        <p className="bs-error" role="alert">
          {problem}
        </p>
      ) : null}
      {draft ? (
        <div className="admin-lead-action">
          <label>
            Proposal to the buyer
            <textarea value={draft} onChange={(event) => setDraft(event.target.value)} rows={5} />
          </label>
          <button type="button" className="bs-button" disabled={busy || !draft.trim()} onClick={() => void send()}>
            Send proposal
          </button>
        </div>
      ) : (
        <button type="button" className="bs-button" onClick={() => void prepare()}>
          Propose a viewing
        </button>
      )}
    </section>
  );
}
