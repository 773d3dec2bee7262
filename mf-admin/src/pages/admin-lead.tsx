import { useEffect, useState, type FormEvent } from 'react';
import { useStore } from '@nanostores/react';
import { Link, useParams } from 'react-router-dom';
import { LEAD_MESSAGE_MAX_LENGTH } from '@boatshop/contract/constants';
import { formatDateTime } from '@boatshop/state';
import { $lead, addLeadNote, leaveLead, markLeadLost, openLead, replyToLead, waitsTooLong } from '../leads/admin-leads';
import { LEAD_EVENT_NAMES, LEAD_STATE_NAMES } from '../leads/lead-state-names';
import { LeadOffers } from '../leads/lead-offers-section';
import { ProposeViewing } from '../leads/propose-viewing';
import '../styles.css';
import '../orders/orders.css';
import '../leads/leads.css';

/** A text box with its button; cleared once the action was done. */
function TextAction(props: {
  label: string;
  button: string;
  maxLength: number;
  rows?: number;
  onSubmit: (text: string) => Promise<boolean>;
}) {
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy(true);
    if (await props.onSubmit(text)) setText('');
    setBusy(false);
  }
  return (
    <form className="admin-lead-action" onSubmit={submit}>
      <label>
        {props.label}
        <textarea
          value={text}
          onChange={(event) => setText(event.target.value)}
          required
          rows={props.rows ?? 3}
          maxLength={props.maxLength}
        />
      </label>
      <button type="submit" className="bs-button" disabled={busy}>
        {props.button}
      </button>
    </form>
  );
}

/**
 * /admin/leads/:leadID: the conversation with the buyer, the internal notes (staff only), the
 * timeline, and the actions: reply, add a note, mark lost with a reason.
 */
export default function AdminLead() {
  const { leadID = '' } = useParams();
  const { status, lead, error } = useStore($lead);

  useEffect(() => {
    void openLead(leadID);
    return leaveLead;
  }, [leadID]);

  if (status === 'missing') {
    return (
      <section className="admin-page" aria-labelledby="admin-lead-title">
        <h1 id="admin-lead-title">Lead not found</h1>
        <Link to="/admin/leads">All leads</Link>
      </section>
    );
  }
  if (!lead) {
    return (
      <section className="admin-page" aria-busy="true">
        <p className="admin-muted" role="status">
          Loading lead…
        </p>
      </section>
    );
  }
  return (
    <section className="admin-page admin-lead" aria-labelledby="admin-lead-title">
      <p>
        <Link to="/admin/leads">All leads</Link>
      </p>
      <div className="admin-page__header">
        <h1 id="admin-lead-title">{lead.productName}</h1>
      </div>
      <dl className="admin-lead-facts">
        <div>
          <dt>Buyer</dt>
          <dd>
            {lead.buyerName} ({lead.email}){lead.hasAccount ? '' : ' · guest'}
          </dd>
        </div>
        <div>
          <dt>State</dt>
          <dd>
            {LEAD_STATE_NAMES[lead.state]}
            {lead.lostReason ? ` (${lead.lostReason})` : ''}
            {waitsTooLong(lead.awaitingReplySince) ? (
              <span className="admin-badge admin-badge--failed">Unanswered for over a day</span>
            ) : null}
          </dd>
        </div>
      </dl>
      {error ? (
        <div className="bs-error admin-errors" role="alert">
          <p>{error}</p>
        </div>
      ) : null}

      <div className="admin-lead-columns">
        <div>
          <h2>Conversation</h2>
          <ol className="admin-conversation" aria-label="Conversation">
            {lead.messages.map((message) => (
              <li key={message.id} className={`admin-message admin-message--${message.author}`}>
                <p className="admin-muted">
                  {message.author === 'shop' ? 'Boat shop' : lead.buyerName} · {formatDateTime(message.createdAt)}
                </p>
                <p className="admin-message__body">{message.body}</p>
              </li>
            ))}
          </ol>
          <TextAction
            label="Reply to the buyer"
            button="Send reply"
            maxLength={LEAD_MESSAGE_MAX_LENGTH}
            rows={5}
            onSubmit={(text) => replyToLead(lead.id, text)}
          />
          <LeadOffers leadId={lead.id} />
          <ProposeViewing leadId={lead.id} productId={lead.productId} productName={lead.productName} />
        </div>
        <div>
          <h2>Internal notes</h2>
          <p className="admin-muted">Only staff see these; the buyer never does.</p>
          <ul className="admin-notes">
            {lead.notes.map((note) => (
              <li key={note.id}>
                <p className="admin-muted">
                  {note.authorName ?? 'Staff'} · {formatDateTime(note.createdAt)}
                </p>
                <p className="admin-message__body">{note.body}</p>
              </li>
            ))}
          </ul>
          <TextAction label="New note" button="Add note" maxLength={2000} onSubmit={(text) => addLeadNote(lead.id, text)} />

          <h2>Timeline</h2>
          <ol className="admin-timeline">
            {lead.timeline.map((event) => (
              <li key={event.id}>
                {formatDateTime(event.createdAt)}: {LEAD_EVENT_NAMES[event.kind] ?? event.kind}
                {event.actorName ? ` by ${event.actorName}` : ''}
                {event.detail ? ` (${event.detail})` : ''}
              </li>
            ))}
          </ol>

          {lead.state !== 'lost' && lead.state !== 'won' ? (
            <TextAction
              label="Reason the lead is lost"
              button="Mark lost"
              maxLength={500}
              rows={2}
              onSubmit={(text) => markLeadLost(lead.id, text)}
            />
          ) : null}
        </div>
      </div>
    </section>
  );
}
