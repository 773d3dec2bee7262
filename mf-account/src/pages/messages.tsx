import { useEffect } from 'react';
import { useStore } from '@nanostores/react';
import { Link } from 'react-router-dom';
import { formatDate } from '@boatshop/state';
import { $conversations, fetchConversations } from '../messages/messages';
import { CONVERSATION_STATE_LABELS } from '../messages/lead-state-labels';
import '../styles.css';

/** /messages: the shopper's conversations with the shop, one per question about a boat. */
export default function Messages() {
  const conversations = useStore($conversations);
  useEffect(() => {
    void fetchConversations();
  }, []);

  return (
    <section className="account-page" aria-labelledby="account-messages-title">
      <h1 id="account-messages-title">Messages</h1>
      {conversations.status === 'failed' ? (
        <p role="alert" className="account-notice account-notice--error">
          Your messages could not be loaded. Please try again.
        </p>
      ) : conversations.status === 'ready' && conversations.data.length === 0 ? (
        <p>You have no messages yet. Ask a question on any boat&apos;s page.</p>
      ) : conversations.data.length > 0 ? (
        <table className="account-table">
          <thead>
            <tr>
              <th scope="col">Boat</th>
              <th scope="col">State</th>
              <th scope="col">Last activity</th>
            </tr>
          </thead>
          <tbody>
            {conversations.data.map((conversation) => (
              <tr key={conversation.id}>
                <td>
                  <Link to={`/messages/${conversation.id}`}>{conversation.productName}</Link>
                </td>
                <td>{CONVERSATION_STATE_LABELS[conversation.state]}</td>
                <td>{formatDate(conversation.lastActivityAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p className="account-muted" role="status">
          Loading…
        </p>
      )}
    </section>
  );
}
