import { Link } from 'react-router-dom';

/** The ways from the account's home to the conversations with the shop, to the shopper's data and to the address book. */
export function MessagesLink() {
  return (
    <p className="account-messages-link">
      <Link to="/messages">Messages</Link> · <Link to="/account/data">Your data</Link> · <Link to="/account/addresses">Addresses</Link>
    </p>
  );
}
