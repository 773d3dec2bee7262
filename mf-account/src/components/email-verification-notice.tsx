import { useStore } from '@nanostores/react';
import { $session } from '@boatshop/state';
import { $verificationResend, resendVerificationEmail } from '../identity/account-security';

/**
 * Shown to a signed-in user whose address the sign-up e-mail's link has not confirmed yet: they
 * can shop, but a provider sign-in will not link to the account until it is.
 */
export function EmailVerificationNotice() {
  const { user } = useStore($session);
  const resend = useStore($verificationResend);
  if (!user || user.emailVerified) return null;

  return (
    // Above the page's h1, so a paragraph rather than a heading names it.
    <section className="account-notice account-verification" aria-labelledby="account-verification-title">
      <p id="account-verification-title" className="account-verification__title">
        Your e-mail address is not verified
      </p>
      <p>
        We sent a confirmation link to <strong>{user.email}</strong>. Open it to confirm that the address is yours.
      </p>
      <button type="button" className="bs-button" disabled={resend.status === 'sending'} onClick={() => void resendVerificationEmail()}>
        Resend the e-mail
      </button>
      {resend.message ? (
        <p role={resend.status === 'failed' ? 'alert' : 'status'} className="account-verification__result">
          {resend.message}
        </p>
      ) : null}
    </section>
  );
}
