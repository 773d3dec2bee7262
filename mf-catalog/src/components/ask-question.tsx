import { useState, type FormEvent } from 'react';
import { useHydrated, useStoreAfterHydration } from '@boatshop/web-shared/after-hydration';
import type { Product } from '@boatshop/contract';
import { $session, type SessionState } from '@boatshop/state';
import { LEAD_MESSAGE_MAX_LENGTH } from '@boatshop/contract/constants';
import { askQuestion, type EnquiryOutcome } from '../enquiries/ask-question';
import './ask-question.css';

/** The session as the server renders it: nobody signed in (the name shows once the page has hydrated). */
const SIGNED_OUT: SessionState = { status: 'unknown', user: null };

const SENT: Record<EnquiryOutcome, string> = {
  received: 'Thank you, your question was sent. The answer will be under Messages in your account.',
  'confirm-by-email': 'Almost done: we sent you an e-mail. Open its link to confirm your question; the shop receives it then.',
};

/**
 * "Ask a question" on the product page: a signed-in shopper writes only the question, a guest
 * also a name and an e-mail address (confirmed by a link). The hidden "website" field is a trap
 * for bots; people never see it.
 */
export function AskQuestion({ product }: { product: Product }) {
  const { user } = useStoreAfterHydration($session, SIGNED_OUT);
  const [open, setOpen] = useState(false);
  const hydrated = useHydrated();
  const [sending, setSending] = useState(false);
  const [problems, setProblems] = useState<string[]>([]);
  const [sent, setSent] = useState<EnquiryOutcome | null>(null);

  if (sent) {
    return (
      <p className="catalog-enquiry-sent" role="status">
        {SENT[sent]}
      </p>
    );
  }
  if (!open) {
    return (
      <button type="button" className="catalog-button catalog-button--secondary" disabled={!hydrated} onClick={() => setOpen(true)}>
        Ask a question
      </button>
    );
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const field = (name: string) => String(form.get(name) ?? '');
    setSending(true);
    const result = await askQuestion({
      productId: product.id,
      message: field('message'),
      ...(user ? {} : { name: field('name'), email: field('email') }),
      website: field('website'),
    });
    setSending(false);
    if ('outcome' in result) setSent(result.outcome);
    else setProblems(result.problems);
  }

  return (
    <form className="catalog-enquiry" onSubmit={submit} aria-labelledby="catalog-enquiry-title">
      <h2 id="catalog-enquiry-title">Ask a question</h2>
      {problems.length > 0 ? (
        <ul className="catalog-enquiry-problems" role="alert">
          {problems.map((problem) => (
            <li key={problem}>{problem}</li>
          ))}
        </ul>
      ) : null}
      {user ? null : (
        <>
          <label>
            Your name
            <input name="name" autoComplete="name" required maxLength={100} />
          </label>
          <label>
            Your e-mail
            <input name="email" type="email" autoComplete="email" required maxLength={254} />
          </label>
        </>
      )}
      <label>
        Your question about the {product.name}
        <textarea name="message" required rows={5} maxLength={LEAD_MESSAGE_MAX_LENGTH} />
      </label>
      <label className="catalog-enquiry-trap" aria-hidden="true">
        Website
        <input name="website" tabIndex={-1} autoComplete="off" />
      </label>
      <button type="submit" className="catalog-button" disabled={sending}>
        Send question
      </button>
    </form>
  );
}
