import { Link } from 'react-router-dom';

export function NotFound() {
  return (
    <section aria-labelledby="not-found-title">
      <h1 id="not-found-title">Page not found</h1>
      <p>
        This page does not exist. <Link to="/">Back to the shop</Link>
      </p>
    </section>
  );
}
