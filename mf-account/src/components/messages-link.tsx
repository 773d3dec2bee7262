import { Link } from 'react-router-dom';

/** The ways from the account's home to the conversations with the shop, the shopper's data, the address book, favourites and saved searches. */
export function MessagesLink() {
  return (
    <p className="account-messages-link">
      <Link to="/messages">Messages</Link> · <Link to="/account/data">Your data</Link> · <Link to="/account/addresses">Addresses</Link> ·{' '}
      <Link to="/account/favourites">Favourites</Link> · <Link to="/account/saved-searches">Saved searches</Link>
    </p>
  );
}
