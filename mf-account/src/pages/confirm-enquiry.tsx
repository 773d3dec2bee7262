import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { confirmEnquiry } from '../messages/messages';
import { ErrorList } from './login-form-parts';
import { useTokenFromUrl } from './token-from-url';
import '../styles.css';

/** /enquiries/confirm?token=…: a guest's link from the e-mail; it sends the question to the shop at once. */
export default function ConfirmEnquiry() {
  const token = useTokenFromUrl();
  const [result, setResult] = useState<{ productName: string } | { problems: string[] } | null>(null);
  // One request per token, also when React runs the effect twice in development.
  const sentFor = useRef<string | null>(null);

  useEffect(() => {
    if (!token || sentFor.current === token) return;
    sentFor.current = token;
    void confirmEnquiry(token).then(setResult);
  }, [token]);

  return (
    <section className="account-page account-auth" aria-labelledby="account-confirm-enquiry-title">
      <h1 id="account-confirm-enquiry-title">Confirm your question</h1>
      {!token ? (
        <p>This link has no confirmation token.</p>
      ) : result === null ? (
        <p className="account-muted" role="status">
          Confirming your question…
        </p>
      ) : 'productName' in result ? (
        <p role="status" className="account-notice account-notice--success">
          Thank you, your question about the {result.productName} was sent to the shop. The answer comes by e-mail; sign up with the same
          e-mail address to read and reply under Messages.
        </p>
      ) : (
        <ErrorList errors={result.problems} />
      )}
      <p className="account-auth__links">
        <Link to="/registration">Sign up</Link> · <Link to="/">Continue shopping</Link>
      </p>
    </section>
  );
}
