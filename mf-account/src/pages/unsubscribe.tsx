import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { unsubscribe } from '../keep/keep';
import '../styles.css';

type Outcome = { status: 'working' } | { status: 'done'; name: string } | { status: 'failed'; message: string };

/**
 * /alerts/unsubscribe?token=…: the link in every alert e-mail. Opening it stops that saved
 * search's alerts at once, without signing in (the token is signed by the shop). A scanner that
 * only fetches the page runs no script, so it stops nothing.
 */
export default function Unsubscribe() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [outcome, setOutcome] = useState<Outcome>({ status: 'working' });
  useEffect(() => {
    if (!token) return;
    let current = true;
    void unsubscribe(token).then((answer) => {
      if (!current) return;
      setOutcome('name' in answer ? { status: 'done', name: answer.name } : { status: 'failed', message: answer.error });
    });
    return () => {
      current = false;
    };
  }, [token]);
  const shown: Outcome = token ? outcome : { status: 'failed', message: 'This link has no token. Open it again from the e-mail.' };

  return (
    <section className="account-page" aria-labelledby="account-unsubscribe-title">
      <h1 id="account-unsubscribe-title">Boat alerts</h1>
      {shown.status === 'working' ? (
        <p role="status">Stopping the alerts…</p>
      ) : shown.status === 'done' ? (
        <p role="status">You will get no more e-mails for the saved search “{shown.name}”.</p>
      ) : (
        <p role="alert" className="account-notice account-notice--error">
          {shown.message}
        </p>
      )}
    </section>
  );
}
