import '../styles.css';

/** Placeholder until the identity issue brings the sign-up form and its error list. */
export default function Registration() {
  return (
    <section className="account-page" aria-labelledby="account-registration-title">
      <h1 id="account-registration-title">sign up</h1>
    </section>
  );
}
