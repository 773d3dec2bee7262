import type { Product } from '@boatshop/contract';
import { FEW_LEFT } from '@boatshop/contract/constants';

type Stocked = Pick<Product, 'stock' | 'availability'>;

/** What a card and the product page say about stock: nothing for a boat that can simply be bought. */
export function availabilityText(product: Stocked): string | null {
  if (product.availability === 'sold_out') return 'Sold';
  if (product.availability === 'reserved') return 'Reserved';
  if (product.stock !== null && product.stock <= FEW_LEFT) return `Only ${product.stock} left`;
  return null;
}

/** Add to cart is offered only for what can be bought now, and never beyond the units left. */
export function canAddToCart(product: Stocked, quantityInCart: number): boolean {
  if (product.availability !== 'in_stock') return false;
  return product.stock === null || quantityInCart < product.stock;
}

export function AvailabilityLabel({ product }: { product: Stocked }) {
  const text = availabilityText(product);
  if (text === null) return null;
  const tone = product.availability === 'in_stock' ? 'few' : 'unavailable';
  return <p className={`catalog-availability catalog-availability--${tone}`}>{text}</p>;
}
