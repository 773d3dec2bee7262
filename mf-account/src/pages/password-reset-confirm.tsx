import { useEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { confirmPasswordReset } from '@boatshop/state';
import { ErrorList, Field, useIdentityForm, type LoginNotice } from './login-form-parts';
import '../styles.css';

/** /password-reset/confirm?token=…: the page the reset e-mail links to, to choose a new password. */
export default function PasswordResetConfirm() {
  const [searchParams, setSearchParams] = useSearchParams();
  // Read once, then kept in memory only: the token opens the account until it is used, so it
  // leaves the address bar (history, synced tabs, a shared screen, Referer) at once.
  const [token] = useState(() => searchParams.get('token'));
  useEffect(() => {
    if (!searchParams.has('token')) return;
    const rest = new URLSearchParams(searchParams);
    rest.delete('token');
    setSearchParams(rest, { replace: true });
  }, [searchParams, setSearchParams]);
  const { errors, busy, setBusy } = useIdentityForm();
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!token) return;
    setBusy(true);
    if (await confirmPasswordReset({ token, password, confirmPassword })) {
      navigate('/login', {
        replace: true,
        state: { notice: 'Your password has been changed. Log in with your new password.' } satisfies LoginNotice,
      });
    } else {
      setBusy(false);
    }
  }

  return (
    <section className="account-page account-auth" aria-labelledby="account-password-reset-confirm-title">
      <h1 id="account-password-reset-confirm-title">Choose a new password</h1>
      {token ? (
        <>
          <ErrorList errors={errors} />
          <form className="account-auth__form" onSubmit={(event) => void onSubmit(event)}>
            <Field
              label="New Password"
              type="password"
              name="password"
              autoComplete="new-password"
              required
              hint="At least 8 characters, not your e-mail address and not a common password."
              value={password}
              onChange={(event) => setPassword(event.target.value)}
            />
            <Field
              label="Confirm New Password"
              type="password"
              name="confirmPassword"
              autoComplete="new-password"
              required
              value={confirmPassword}
              onChange={(event) => setConfirmPassword(event.target.value)}
            />
            <button type="submit" className="bs-button account-auth__submit" disabled={busy}>
              Save new password
            </button>
          </form>
        </>
      ) : (
        <p>This link has no reset token.</p>
      )}
      <p className="account-auth__links">
        <Link to="/password-reset">Ask for a new link</Link>
      </p>
    </section>
  );
}
