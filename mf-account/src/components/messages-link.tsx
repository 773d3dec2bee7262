import { Link } from 'react-router-dom';

/** The way from the account's home to the conversations with the shop. */
export function MessagesLink() {
  return (
    <p className="account-messages-link">
      <Link to="/messages">Messages</Link>
    </p>
  );
}
