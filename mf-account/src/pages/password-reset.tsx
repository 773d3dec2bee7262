import { useEffect, useState, type FormEvent } from 'react';
import { useStore } from '@nanostores/react';
import { Link, useNavigate } from 'react-router-dom';
import { $resetPasswordSuccess, requestPasswordReset, resetUserState } from '../identity/identity';
import { ErrorList, Field, useIdentityForm, type LoginNotice } from './login-form-parts';
import '../styles.css';

/**
 * /password-reset: asks for the reset e-mail. When the request succeeds the user
 * state is reset and the visitor goes to /login, which shows that the e-mail is on its way.
 */
export default function PasswordReset() {
  const { errors, busy, setBusy } = useIdentityForm();
  const succeeded = useStore($resetPasswordSuccess);
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [note, setNote] = useState<string | null>(null);

  useEffect(() => {
    if (!succeeded || note === null) return;
    resetUserState();
    navigate('/login', { state: { notice: note } satisfies LoginNotice });
  }, [succeeded, note, navigate]);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy(true);
    const message = await requestPasswordReset(email);
    if (message === null) setBusy(false);
    else setNote(message);
  }

  return (
    <section className="account-page account-auth" aria-labelledby="account-password-reset-title">
      <h1 id="account-password-reset-title">Reset password</h1>
      <p className="bs-hint">Enter the e-mail of your account and we will send you a link to choose a new password.</p>
      <ErrorList errors={errors} />
      <form className="account-auth__form" onSubmit={(event) => void onSubmit(event)}>
        <Field
          label="Email"
          type="email"
          name="email"
          autoComplete="email"
          required
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />
        <button type="submit" className="bs-button account-auth__submit" disabled={busy}>
          Send email
        </button>
      </form>
      <p className="account-auth__links">
        <Link to="/login">Back to log in</Link>
      </p>
    </section>
  );
}
