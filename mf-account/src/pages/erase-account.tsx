import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { confirmErasure } from '../privacy/privacy';
import type { LoginNotice } from './login-form-parts';
import { ErrorList } from './login-form-parts';
import { useTokenFromUrl } from './token-from-url';
import '../styles.css';

/**
 * /account/erase?token=…: the link from the erasure e-mail. Nothing happens until the shopper
 * presses the button: erasure cannot be undone, and a link opened by a mail scanner must not erase.
 */
export default function EraseAccount() {
  const token = useTokenFromUrl();
  const navigate = useNavigate();
  const [problems, setProblems] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);

  async function onErase() {
    if (!token) return;
    setBusy(true);
    const found = await confirmErasure(token);
    if (found.length === 0) {
      navigate('/login', {
        replace: true,
        state: { notice: 'Your account was erased. Thank you for sailing with us.' } satisfies LoginNotice,
      });
      return;
    }
    setProblems(found);
    setBusy(false);
  }

  return (
    <section className="account-page account-auth" aria-labelledby="account-erase-title">
      <h1 id="account-erase-title">Erase your account</h1>
      {!token ? (
        <p>This link has no confirmation token.</p>
      ) : (
        <>
          <p>
            Once erased, you can no longer sign in, and everything we hold about you is deleted, except the invoices of your orders with the
            billing name and address on them, which the law requires us to keep for ten years. This cannot be undone.
          </p>
          <ErrorList errors={problems} />
          <button type="button" className="bs-button account-button--danger" disabled={busy} onClick={() => void onErase()}>
            Erase my account now
          </button>
        </>
      )}
      <p className="account-auth__links">
        <Link to="/dashboard">Keep my account</Link>
      </p>
    </section>
  );
}
