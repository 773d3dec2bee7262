import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useStore } from '@nanostores/react';
import { Link } from 'react-router-dom';
import { $session } from '@boatshop/state';
import { $emailVerification, choosePasswordAndVerify, verifyEmail } from '../identity/account-security';
import { ErrorList, NewPasswordFields } from './login-form-parts';
import { useTokenFromUrl } from './token-from-url';
import '../styles.css';

/**
 * The password step: the link was opened outside a session of the account, so the address is
 * confirmed together with a new password and every device signed in to the account is signed out.
 */
function ChoosePassword({ token, message, errors, saving }: { token: string; message: string | null; errors: string[]; saving: boolean }) {
  const [password, setPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    void choosePasswordAndVerify({ token, password, confirmPassword });
  }
  return (
    <>
      <p>{message}</p>
      <p className="account-muted">If you created this account yourself, you may instead log in on this device and open the link again.</p>
      <ErrorList errors={errors} />
      <form className="account-auth__form" aria-label="Choose a password" onSubmit={onSubmit}>
        <NewPasswordFields
          password={password}
          confirmPassword={confirmPassword}
          onPassword={setPassword}
          onConfirmPassword={setConfirmPassword}
        />
        <button type="submit" className="bs-button account-auth__submit" disabled={saving}>
          Save password and confirm
        </button>
      </form>
    </>
  );
}

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
      ) : state.status === 'verified-with-password' ? (
        <p role="status" className="account-notice account-notice--success">
          Your e-mail address is confirmed and your password is saved. Log in with your new password.
        </p>
      ) : state.status === 'password-required' || state.status === 'saving' ? (
        <ChoosePassword token={token} message={state.message} errors={state.errors} saving={state.status === 'saving'} />
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
