import { useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { signIn, signInWithGoogle } from '../identity/identity';
import { ErrorList, Field, readLoginNotice, useIdentityForm } from './login-form-parts';
import '../styles.css';

/** Google's four-colour "G", as its sign-in button guidelines show it. */
function GoogleIcon() {
  return (
    <svg viewBox="0 0 48 48" aria-hidden="true" focusable="false">
      <path
        fill="#EA4335"
        d="M24 9.5c3.54 0 6.71 1.22 9.21 3.6l6.85-6.85C35.9 2.38 30.47 0 24 0 14.62 0 6.51 5.38 2.56 13.22l7.98 6.19C12.43 13.72 17.74 9.5 24 9.5z"
      />
      <path
        fill="#4285F4"
        d="M46.98 24.55c0-1.57-.15-3.09-.38-4.55H24v9.02h12.94c-.58 2.96-2.26 5.48-4.78 7.18l7.73 6c4.51-4.18 7.09-10.36 7.09-17.65z"
      />
      <path
        fill="#FBBC05"
        d="M10.53 28.59c-.48-1.45-.76-2.99-.76-4.59s.27-3.14.76-4.59l-7.98-6.19C.92 16.46 0 20.12 0 24c0 3.88.92 7.54 2.56 10.78l7.97-6.19z"
      />
      <path
        fill="#34A853"
        d="M24 48c6.48 0 11.93-2.13 15.89-5.81l-7.73-6c-2.15 1.45-4.92 2.3-8.16 2.3-6.26 0-11.57-4.22-13.47-9.91l-7.98 6.19C6.51 42.62 14.62 48 24 48z"
      />
    </svg>
  );
}

/** /login: e-mail and password, social sign-in in a popup, a link to reset the password. */
export default function Login() {
  const { errors, busy, setBusy } = useIdentityForm();
  const navigate = useNavigate();
  const notice = readLoginNotice(useLocation().state);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy(true);
    if (await signIn({ email, password })) navigate('/', { replace: true });
    else setBusy(false);
  }

  function onGoogle() {
    setBusy(true);
    // Called straight from the click: a popup opened later would be blocked.
    void signInWithGoogle().then((signedIn) => {
      if (signedIn) navigate('/', { replace: true });
      else setBusy(false);
    });
  }

  return (
    <section className="account-page account-auth" aria-labelledby="account-login-title">
      <h1 id="account-login-title">log in</h1>
      {notice ? (
        <p className="account-notice account-notice--success" role="status">
          {notice}
        </p>
      ) : null}
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
        <Field
          label="Password"
          type="password"
          name="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
        <button type="submit" className="bs-button account-auth__submit" disabled={busy}>
          Log in
        </button>
      </form>
      <p className="account-auth__divider">or</p>
      <button type="button" className="account-auth__google" onClick={onGoogle} disabled={busy}>
        <GoogleIcon />
        Sign in with Google
      </button>
      <p className="account-auth__links">
        <Link to="/password-reset">Reset password</Link>
        <Link to="/registration">No account yet? Register</Link>
      </p>
    </section>
  );
}
