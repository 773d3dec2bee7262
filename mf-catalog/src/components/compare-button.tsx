import { useHydrated, useStoreAfterHydration } from '@boatshop/web-shared/after-hydration';
import type { Product } from '@boatshop/contract';
import { $compare, addToCompare, removeFromCompare, type CompareItem } from '../keep/compare';
import './keep.css';

/** The tray as the server renders it: empty (the visitor's own tray shows once hydrated). */
const NONE: CompareItem[] = [];

/** "Compare": a toggle that puts the boat in the compare tray or takes it out. */
export function CompareButton({ product }: { product: Pick<Product, 'id' | 'name'> }) {
  const hydrated = useHydrated();
  const chosen = useStoreAfterHydration($compare, NONE).some((item) => item.id === product.id);
  return (
    <button
      type="button"
      className="catalog-compare-toggle"
      aria-pressed={chosen}
      aria-label={`Compare: ${product.name}`}
      disabled={!hydrated}
      onClick={() => (chosen ? removeFromCompare(product.id) : addToCompare(product))}
    >
      {chosen ? <span aria-hidden="true">✓ </span> : null}
      Compare
    </button>
  );
}
