import { useState } from 'react';

/**
 * What a path no known route matches shows while the shell's server does not know some remote's
 * pages (its route data unread: that remote unreachable since the server started, which then
 * answers the page 503): it may be one of that remote's pages, so the shop does not call it
 * missing. Retry asks the server again (`askAgain`); once the remote's pages are known, the router
 * is rebuilt and the page itself, or the not-found page, takes this one's place.
 */
export function Unreachable({ askAgain }: { askAgain: () => Promise<void> }) {
  const [state, setState] = useState<'idle' | 'asking' | 'still'>('idle');
  const retry = () => {
    setState('asking');
    askAgain().then(
      () => setState('still'),
      (error: unknown) => {
        console.error('cannot ask the shop for its pages again', error);
        setState('still');
      },
    );
  };
  return (
    <section aria-labelledby="unreachable-title">
      <h1 id="unreachable-title">This part of the shop cannot be reached right now</h1>
      <p>Please try again in a moment.</p>
      <button type="button" className="bs-button" onClick={retry} disabled={state === 'asking'}>
        Retry
      </button>
      <p role="status">{state === 'still' ? 'It still cannot be reached. Please try again in a moment.' : ''}</p>
    </section>
  );
}
