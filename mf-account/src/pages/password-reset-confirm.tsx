import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { confirmPasswordReset } from '../identity/identity';
import { ErrorList, NewPasswordFields, useIdentityForm, type LoginNotice } from './login-form-parts';
import { useTokenFromUrl } from './token-from-url';
import '../styles.css';

/** /password-reset/confirm?token=…: the page the reset e-mail links to, to choose a new password. */
export default function PasswordResetConfirm() {
  const token = useTokenFromUrl();
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
            <NewPasswordFields
              password={password}
              confirmPassword={confirmPassword}
              onPassword={setPassword}
              onConfirmPassword={setConfirmPassword}
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
