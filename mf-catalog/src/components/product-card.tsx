import { Link } from 'react-router-dom';
import type { Product } from '@boatshop/contract';
import { formatPrice } from '@boatshop/state';
import { AddToCartButton } from './add-to-cart-button';
import { AvailabilityLabel } from './availability';
import { CompareButton } from './compare-button';
import { FavouriteButton } from './favourite-button';

/**
 * The first row is above the fold on most screens, so only later cards load lazily (keeps the LCP
 * image eager); the first card's picture, the page's largest paint on a phone, is fetched first.
 */
export function ProductCard({ product, eager, first = false }: { product: Product; eager: boolean; first?: boolean }) {
  return (
    <li className="catalog-card">
      <img
        src={product.thumbnailUrl}
        alt={product.name}
        width={400}
        height={300}
        loading={eager ? 'eager' : 'lazy'}
        fetchPriority={first ? 'high' : undefined}
      />
      <Link to={`/product/${product.id}`} className="catalog-card-link">
        {product.name}
      </Link>
      <p className="catalog-price">{formatPrice(product.priceCents)}</p>
      <AvailabilityLabel product={product} />
      <AddToCartButton product={product} />
      <div className="catalog-card-actions">
        <FavouriteButton product={product} />
        <CompareButton product={product} />
      </div>
    </li>
  );
}
