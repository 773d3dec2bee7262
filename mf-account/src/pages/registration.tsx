import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { signUp } from '../identity/identity';
import { ErrorList, Field, useIdentityForm } from './login-form-parts';
import '../styles.css';

/** /registration: the sign-up form with its error list above it. */
export default function Registration() {
  const { errors, busy, setBusy } = useIdentityForm();
  const navigate = useNavigate();
  const [form, setForm] = useState({ displayName: '', email: '', password: '', confirmPassword: '' });

  const update = (key: keyof typeof form) => (event: { target: { value: string } }) =>
    setForm((current) => ({ ...current, [key]: event.target.value }));

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy(true);
    if (await signUp(form)) navigate('/', { replace: true });
    else setBusy(false);
  }

  return (
    <section className="account-page account-auth" aria-labelledby="account-registration-title">
      <h1 id="account-registration-title">sign up</h1>
      <ErrorList errors={errors} />
      <form className="account-auth__form" onSubmit={(event) => void onSubmit(event)}>
        <Field
          label="Full Name"
          name="displayName"
          autoComplete="name"
          required
          value={form.displayName}
          onChange={update('displayName')}
        />
        <Field label="Email" type="email" name="email" autoComplete="email" required value={form.email} onChange={update('email')} />
        <Field
          label="Password"
          type="password"
          name="password"
          autoComplete="new-password"
          required
          hint="At least 8 characters, not your e-mail address and not a common password."
          value={form.password}
          onChange={update('password')}
        />
        <Field
          label="Confirm Password"
          type="password"
          name="confirmPassword"
          autoComplete="new-password"
          required
          value={form.confirmPassword}
          onChange={update('confirmPassword')}
        />
        <button type="submit" className="bs-button account-auth__submit" disabled={busy}>
          Register
        </button>
      </form>
      <p className="account-auth__links">
        <Link to="/login">Already have an account? Log in</Link>
      </p>
    </section>
  );
}
