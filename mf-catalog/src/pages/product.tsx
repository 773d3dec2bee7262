import { useEffect, useState } from 'react';
import { useParams } from 'react-router-dom';
import { api, formatPrice, isApiError, type Product as ProductData } from '@boatshop/state';
import { AddToCartButton } from '../components/add-to-cart-button';
import { AvailabilityLabel } from '../components/availability';
import { ReleaseLabel } from '../release-label';
import { preloadSanitizer, sanitizeDescription } from '../sanitize-description';
import '../styles.css';

type ProductState = { status: 'loading' } | { status: 'missing' } | { status: 'ready'; product: ProductData; safeDescription: string };

/** The server sanitises on write; the browser sanitises again with the same allowlist (../sanitize-description). */
async function loadProduct(productID: string, signal: AbortSignal): Promise<ProductState> {
  preloadSanitizer();
  const product = await api.get<ProductData>(`/products/${encodeURIComponent(productID)}`, { signal });
  return { status: 'ready', product, safeDescription: await sanitizeDescription(product.descriptionHtml) };
}

export default function Product() {
  const { productID = '' } = useParams();
  const [state, setState] = useState<ProductState>({ status: 'loading' });
  // Another product drops the one shown, so the next one never flashes the previous one: set
  // while rendering (as React advises for state that follows a prop), before anything is painted.
  const [stateFor, setStateFor] = useState(productID);
  if (stateFor !== productID) {
    setStateFor(productID);
    setState({ status: 'loading' });
  }

  useEffect(() => {
    const controller = new AbortController();
    loadProduct(productID, controller.signal).then(
      // The description is sanitised after the fetch: a product left meanwhile stays unshown.
      (loaded) => {
        if (!controller.signal.aborted) setState(loaded);
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        if (!(isApiError(error) && error.status === 404)) console.error(error);
        setState({ status: 'missing' });
      },
    );
    return () => controller.abort();
  }, [productID]);

  if (state.status === 'loading') {
    return (
      <section className="catalog-page" aria-busy="true">
        <p aria-live="polite">Loading…</p>
      </section>
    );
  }
  if (state.status === 'missing') {
    return (
      <section className="catalog-page" aria-labelledby="catalog-product-title">
        <h1 id="catalog-product-title">Product not found</h1>
        <ReleaseLabel />
      </section>
    );
  }
  const { product, safeDescription } = state;
  return (
    <article className="catalog-page catalog-product" aria-labelledby="catalog-product-title">
      <img className="catalog-product-image" src={product.thumbnailUrl} alt={product.name} width={800} height={600} fetchPriority="high" />
      <div className="catalog-product-info">
        <h1 id="catalog-product-title">{product.name}</h1>
        <p className="catalog-price catalog-product-price">{formatPrice(product.priceCents)}</p>
        <AvailabilityLabel product={product} />
        <AddToCartButton product={product} />
        <div className="catalog-description" dangerouslySetInnerHTML={{ __html: safeDescription }} />
      </div>
      <ReleaseLabel />
    </article>
  );
}
