import { useState } from 'react';
import { useStore } from '@nanostores/react';
import { useNavigate } from 'react-router-dom';
import { $signOutEverywhereError, signOutEverywhere } from '../identity/account-security';
import type { LoginNotice } from '../pages/login-form-parts';

/** Ends every session of the account, this browser's too, e.g. after losing a phone. */
export function SignOutEverywhere() {
  const error = useStore($signOutEverywhereError);
  const [busy, setBusy] = useState(false);
  const navigate = useNavigate();

  async function onClick() {
    setBusy(true);
    if (await signOutEverywhere()) {
      navigate('/login', { replace: true, state: { notice: 'You have been logged out on all devices.' } satisfies LoginNotice });
    } else {
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby="account-devices-title">
      <h2 id="account-devices-title">Devices</h2>
      <p>Signed in somewhere you no longer use, or lost a device? End every session of your account, this one included.</p>
      {error ? (
        <p role="alert" className="account-notice account-notice--error">
          {error}
        </p>
      ) : null}
      <button type="button" className="bs-button" disabled={busy} onClick={() => void onClick()}>
        Log out of all devices
      </button>
    </section>
  );
}
