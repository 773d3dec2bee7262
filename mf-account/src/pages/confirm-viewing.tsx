import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { ROUTE_PATHS, isApiError, type ResponseOf } from '@boatshop/contract/client';
import { client } from '../api';
import { ErrorList } from './login-form-parts';
import { useTokenFromUrl } from './token-from-url';
import '../styles.css';

type Booked = ResponseOf<typeof ROUTE_PATHS.viewings.confirm>;
type Refused = { problems: string[]; productId: string | null };

async function confirmViewing(token: string): Promise<Booked | Refused> {
  try {
    return await client.request(ROUTE_PATHS.viewings.confirm, { body: { token } });
  } catch (error) {
    const message =
      isApiError(error) && error.status > 0 && error.status < 500
        ? error.message
        : 'Your booking could not be confirmed. Please try again.';
    return { problems: [message], productId: null };
  }
}

/**
 * /confirm-viewing?token=…: a guest's link from the e-mail. It books the held time (or, when the
 * hold ran out and someone took the time, says so with the next free times) and the shop hears of it.
 */
export default function ConfirmViewing() {
  const token = useTokenFromUrl();
  const [result, setResult] = useState<Booked | Refused | null>(null);
  // One request per token, also when React runs the effect twice in development.
  const sentFor = useRef<string | null>(null);

  useEffect(() => {
    if (!token || sentFor.current === token) return;
    sentFor.current = token;
    void confirmViewing(token).then(setResult);
  }, [token]);

  const word = result && 'kind' in result && result.kind === 'sea_trial' ? 'sea trial' : 'viewing';
  return (
    <section className="account-page account-auth" aria-labelledby="account-confirm-viewing-title">
      <h1 id="account-confirm-viewing-title">Confirm your booking</h1>
      {!token ? (
        <p>This link has no confirmation token.</p>
      ) : result === null ? (
        <p className="account-muted" role="status">
          Confirming your booking…
        </p>
      ) : 'id' in result ? (
        <p role="status" className="account-notice account-notice--success">
          Thank you, your {word} of the {result.productName} is booked for {result.label} ({result.place.timeZone} time) at{' '}
          {result.place.marina}, {result.place.address}. The confirmation with a calendar invitation is on its way to your e-mail. Sign up
          with the same e-mail address to reschedule or cancel it and to read the shop&apos;s messages.
        </p>
      ) : (
        <ErrorList errors={result.problems} />
      )}
      <p className="account-auth__links">
        <Link to="/registration">Sign up</Link> · <Link to="/">Continue shopping</Link>
      </p>
    </section>
  );
}
