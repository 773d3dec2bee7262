import { useEffect, useState, type FormEvent } from 'react';
import { useStore } from '@nanostores/react';
import { $session } from '@boatshop/state';
import { $passwordChange, changePassword, resetPasswordChange } from '../identity/account-security';
import { $resetPasswordSuccess, requestPasswordReset } from '../identity/identity';
import { ErrorList, Field, NewPasswordFields } from '../pages/login-form-parts';

/**
 * The dashboard's password form: the current password is required; other devices are signed out.
 * An account that signs in only through the provider has no current password to give: it is
 * offered a link by e-mail to set one (the password-reset flow) instead.
 */
export function ChangePasswordForm() {
  const { user } = useStore($session);
  if (user?.hasPassword === false) return <SetPassword email={user.email} />;
  return <ChangePassword />;
}

function SetPassword({ email }: { email: string }) {
  const [status, setStatus] = useState<'idle' | 'sending' | 'sent'>('idle');

  async function onClick() {
    setStatus('sending');
    const sent = (await requestPasswordReset(email)) !== null;
    // The reset page's own "sent" flag is not this page's business.
    $resetPasswordSuccess.set(false);
    setStatus(sent ? 'sent' : 'idle');
  }

  return (
    <section aria-labelledby="account-password-title">
      <h2 id="account-password-title">Set a password</h2>
      <p>You sign in with your Google account. To sign in with your e-mail address as well, set a password.</p>
      {status === 'sent' ? (
        <p role="status" className="account-notice account-notice--success">
          We have sent a link to {email} to set your password.
        </p>
      ) : (
        <button type="button" className="bs-button" disabled={status === 'sending'} onClick={() => void onClick()}>
          E-mail me a link to set a password
        </button>
      )}
    </section>
  );
}

function ChangePassword() {
  const state = useStore($passwordChange);
  const [currentPassword, setCurrentPassword] = useState('');
  const [password, setPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');

  // The outcome belongs to this visit of the dashboard.
  useEffect(() => resetPasswordChange, []);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (await changePassword({ currentPassword, password, confirmPassword })) {
      setCurrentPassword('');
      setPassword('');
      setConfirmPassword('');
    }
  }

  return (
    <section aria-labelledby="account-password-title">
      <h2 id="account-password-title">Change password</h2>
      <ErrorList errors={state.errors} />
      {state.status === 'saved' ? (
        <p role="status" className="account-notice account-notice--success">
          Your password has been changed. Other devices have been logged out.
        </p>
      ) : null}
      <form className="account-auth__form" onSubmit={(event) => void onSubmit(event)}>
        <Field
          label="Current Password"
          type="password"
          name="currentPassword"
          autoComplete="current-password"
          required
          value={currentPassword}
          onChange={(event) => setCurrentPassword(event.target.value)}
        />
        <NewPasswordFields
          password={password}
          confirmPassword={confirmPassword}
          onPassword={setPassword}
          onConfirmPassword={setConfirmPassword}
        />
        <button type="submit" className="bs-button" disabled={state.status === 'saving'}>
          Change password
        </button>
      </form>
    </section>
  );
}
