import { useState } from 'react';
import { useStore } from '@nanostores/react';
import { Link } from 'react-router-dom';
import { isApiError } from '@boatshop/contract/client';
import { $session, setSessionUser } from '@boatshop/state';
import { client } from '../api';
import { ErrorList } from './login-form-parts';
import { useTokenFromUrl } from './token-from-url';
import '../styles.css';

/**
 * /staff-invitation?token=…: the page an owner's invitation e-mail links to. The invited person,
 * signed in with the invited (confirmed) address, accepts and takes the staff role.
 */
export default function StaffInvitation() {
  const token = useTokenFromUrl();
  const { user } = useStore($session);
  const [state, setState] = useState<{ status: 'idle' | 'sending' | 'accepted' | 'failed'; errors: string[] }>({
    status: 'idle',
    errors: [],
  });

  async function accept() {
    if (!token) return;
    setState({ status: 'sending', errors: [] });
    try {
      const answer = await client.staff.acceptInvitation({ token });
      setSessionUser(answer.user);
      setState({ status: 'accepted', errors: [] });
    } catch (error) {
      const message = isApiError(error) && error.status < 500 ? error.message : 'The invitation could not be accepted. Try again.';
      setState({ status: 'failed', errors: [message] });
    }
  }

  return (
    <section className="account-page account-auth" aria-labelledby="account-staff-invitation-title">
      <h1 id="account-staff-invitation-title">Staff invitation</h1>
      {!token ? <p>This link has no invitation token.</p> : null}
      {token && !user ? (
        <p>Log in (or register) with the e-mail address the invitation was sent to, then open the link in the e-mail again.</p>
      ) : null}
      {token && user && state.status !== 'accepted' ? (
        <>
          <p>You are signed in as {user.email}. Accept to work on the shop with the role the invitation names.</p>
          <button type="button" className="bs-button" disabled={state.status === 'sending'} onClick={() => void accept()}>
            Accept the invitation
          </button>
        </>
      ) : null}
      {state.status === 'failed' ? <ErrorList errors={state.errors} /> : null}
      {state.status === 'accepted' ? (
        <p role="status" className="account-notice account-notice--success">
          Welcome aboard. <Link to="/admin">Open the admin area</Link>
        </p>
      ) : null}
      <p className="account-auth__links">{user ? null : <Link to="/login">Log in</Link>}</p>
    </section>
  );
}
