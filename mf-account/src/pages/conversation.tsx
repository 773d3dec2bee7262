import { useEffect, useState, type FormEvent } from 'react';
import { useStore } from '@nanostores/react';
import { Link, useParams } from 'react-router-dom';
import { LEAD_MESSAGE_MAX_LENGTH } from '@boatshop/contract/constants';
import { formatDateTime } from '@boatshop/state';
import { $conversation, leaveConversation, openConversation, replyInConversation } from '../messages/messages';
import { CONVERSATION_STATE_LABELS } from '../messages/lead-state-labels';
import { ErrorList } from './login-form-parts';
import { ConversationOffers } from '../messages/conversation-offers-section';
import '../styles.css';
import './conversation.css';

/** /messages/:enquiryID: one conversation with the shop about a boat, and the reply form. */
export default function Conversation() {
  const { enquiryID = '' } = useParams();
  const { status, enquiry, problems } = useStore($conversation);
  const [sending, setSending] = useState(false);
  const [draft, setDraft] = useState('');

  useEffect(() => {
    void openConversation(enquiryID);
    return leaveConversation;
  }, [enquiryID]);

  async function send(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSending(true);
    if (await replyInConversation(enquiryID, draft)) setDraft('');
    setSending(false);
  }

  if (status === 'missing') {
    return (
      <section className="account-page" aria-labelledby="account-conversation-title">
        <h1 id="account-conversation-title">Conversation not found</h1>
        <Link to="/messages">All messages</Link>
      </section>
    );
  }
  if (!enquiry) {
    return (
      <section className="account-page" aria-busy="true">
        <p className="account-muted" role="status">
          Loading…
        </p>
      </section>
    );
  }
  return (
    <section className="account-page" aria-labelledby="account-conversation-title">
      <p>
        <Link to="/messages">All messages</Link>
      </p>
      <h1 id="account-conversation-title">{enquiry.productName}</h1>
      <p className="account-muted">{CONVERSATION_STATE_LABELS[enquiry.state]}</p>
      <ConversationOffers enquiryId={enquiry.id} />
      <ol className="account-conversation" aria-label="Messages">
        {enquiry.messages.map((message) => (
          <li key={message.id} className={`account-message account-message--${message.author}`}>
            <p className="account-message__meta">
              {message.author === 'shop' ? 'Boat shop' : 'You'} · {formatDateTime(message.createdAt)}
            </p>
            <p className="account-message__body">{message.body}</p>
          </li>
        ))}
      </ol>
      <form className="account-reply" onSubmit={send}>
        <ErrorList errors={problems} />
        <label>
          Your reply
          <textarea
            value={draft}
            onChange={(event) => setDraft(event.target.value)}
            required
            rows={4}
            maxLength={LEAD_MESSAGE_MAX_LENGTH}
          />
        </label>
        <button type="submit" className="bs-button" disabled={sending}>
          Send reply
        </button>
      </form>
    </section>
  );
}
