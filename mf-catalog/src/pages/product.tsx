import { useEffect } from 'react';
import { useStore } from '@nanostores/react';
import { useParams } from 'react-router-dom';
import { formatPrice } from '@boatshop/state';
import { $product, leaveProduct, loadProduct, type ProductState } from '../catalog/product';
import { AddToCartButton } from '../components/add-to-cart-button';
import { AskQuestion } from '../components/ask-question';
import { BookViewing } from '../components/book-viewing';
import { AvailabilityLabel } from '../components/availability';
import { VatTreatment } from '../components/vat-treatment';
import { BoatSpecTable } from '../components/boat-spec-table';
import { CompareButton } from '../components/compare-button';
import { CompareTray } from '../components/compare-tray';
import { FavouriteButton } from '../components/favourite-button';
import { ProductGallery } from '../components/product-gallery';
import { ReleaseLabel } from '../release-label';
import '../styles.css';
import type { ServerPageData } from '@boatshop/web-shared/server-pages';
import { holdPageData } from '../server-data';

const LOADING: ProductState = { status: 'loading' };

export default function Product() {
  const { productID = '' } = useParams();
  // The product lives in a store (src/catalog/product.ts), asked for on arrival and dropped on
  // leaving. A product held for another id reads as loading, so the next product never flashes
  // the previous one.
  useEffect(() => {
    void loadProduct(productID);
    return leaveProduct;
  }, [productID]);
  const held = useStore($product);
  const state = held.id === productID ? held.state : LOADING;

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
      <ProductGallery product={product} />
      <div className="catalog-product-info">
        <h1 id="catalog-product-title">{product.name}</h1>
        <p className="catalog-price catalog-product-price">{formatPrice(product.priceCents)}</p>
        <AvailabilityLabel product={product} />
        <AddToCartButton product={product} />
        <div className="catalog-card-actions">
          <FavouriteButton product={product} />
          <CompareButton product={product} />
        </div>
        <AskQuestion product={product} />
        <BookViewing product={product} />
        <BoatSpecTable specs={product.specs} />
        <div className="catalog-description" dangerouslySetInnerHTML={{ __html: safeDescription }} />
        <VatTreatment productId={product.id} />
      </div>
      <CompareTray />
      <ReleaseLabel />
    </article>
  );
}

/**
 * The shell calls this before hydrating the server's render of this page, with the data the
 * server rendered it from (the page data block): false when the data does not fit the page, and
 * the shell renders it from scratch instead.
 */
export function hydrateWith(url: string, data: ServerPageData): boolean {
  return holdPageData('./Product', url, data, true);
}
