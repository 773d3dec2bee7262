import { Link } from 'react-router-dom';

/** The ways from the account's home to the conversations with the shop and to the shopper's data. */
export function MessagesLink() {
  return (
    <p className="account-messages-link">
      <Link to="/messages">Messages</Link> · <Link to="/account/data">Your data</Link>
    </p>
  );
}
