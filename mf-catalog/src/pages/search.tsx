import { useParams, useSearchParams } from 'react-router-dom';
import { ReleaseLabel } from '../release-label';
import '../styles.css';

/** Placeholder until the catalog issue: filters, product list and Load More come here. */
export default function Search() {
  const { filterType } = useParams();
  const [searchParams] = useSearchParams();
  const query = searchParams.get('q');
  return (
    <section className="catalog-page" aria-labelledby="catalog-search-title">
      <h1 id="catalog-search-title">Browse products</h1>
      <p>Category: {filterType ?? 'all'}</p>
      {query ? <p>Search: {query}</p> : null}
      <ReleaseLabel />
    </section>
  );
}
