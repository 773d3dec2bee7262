import '../styles.css';

/** Placeholder until the identity issue brings the e-mail field, Send email and the error list. */
export default function PasswordReset() {
  return (
    <section className="account-page" aria-labelledby="account-password-reset-title">
      <h1 id="account-password-reset-title">Reset password</h1>
    </section>
  );
}
