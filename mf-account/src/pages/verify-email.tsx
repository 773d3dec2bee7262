import { useEffect, useRef } from 'react';
import { useStore } from '@nanostores/react';
import { Link } from 'react-router-dom';
import { $session } from '@boatshop/state';
import { $emailVerification, verifyEmail } from '../identity/account-security';
import { ErrorList } from './login-form-parts';
import { useTokenFromUrl } from './token-from-url';
import '../styles.css';

/** /verify-email?token=…: the page the sign-up e-mail links to; it confirms the address at once. */
export default function VerifyEmail() {
  const token = useTokenFromUrl();
  const state = useStore($emailVerification);
  const { user } = useStore($session);
  // One request per token, also when React runs the effect twice in development.
  const sentFor = useRef<string | null>(null);

  useEffect(() => {
    if (!token || sentFor.current === token) return;
    sentFor.current = token;
    void verifyEmail(token);
  }, [token]);

  return (
    <section className="account-page account-auth" aria-labelledby="account-verify-email-title">
      <h1 id="account-verify-email-title">Confirm your e-mail address</h1>
      {!token ? (
        <p>This link has no confirmation token.</p>
      ) : state.status === 'verified' ? (
        <p role="status" className="account-notice account-notice--success">
          Your e-mail address is confirmed. Thank you!
        </p>
      ) : state.status === 'failed' ? (
        <ErrorList errors={state.errors} />
      ) : (
        <p className="account-muted" role="status">
          Confirming your e-mail address…
        </p>
      )}
      <p className="account-auth__links">
        {user ? <Link to="/dashboard">Go to my account</Link> : <Link to="/login">Log in</Link>} · <Link to="/">Continue shopping</Link>
      </p>
    </section>
  );
}
