import '../styles.css';

/** Placeholder until the identity issue brings the e-mail sign-in form, the Google button and the Reset password link. */
export default function Login() {
  return (
    <section className="account-page" aria-labelledby="account-login-title">
      <h1 id="account-login-title">log in</h1>
    </section>
  );
}
