import { useStore } from '@nanostores/react';
import { Link } from 'react-router-dom';
import { useStoreAfterHydration } from '@boatshop/web-shared/after-hydration';
import { COMPARE_MAX } from '@boatshop/contract/constants';
import { $compare, $compareNotice, clearCompare, comparePath, removeFromCompare, type CompareItem } from '../keep/compare';
import './keep.css';

const NONE: CompareItem[] = [];

/**
 * The boats chosen for comparing, under the list and on the product page: each removable, a link
 * to the compare page from two boats on, and the message when a fourth was refused (a live region).
 */
export function CompareTray() {
  const items = useStoreAfterHydration($compare, NONE);
  const notice = useStore($compareNotice);
  return (
    <aside className="catalog-compare-tray" aria-label="Compare boats" hidden={items.length === 0 && !notice}>
      <p className="catalog-compare-tray__title">
        Compare ({items.length} of {COMPARE_MAX})
      </p>
      <ul className="catalog-compare-tray__list">
        {items.map((item) => (
          <li key={item.id}>
            {item.name}{' '}
            <button
              type="button"
              className="catalog-link-button"
              aria-label={`Remove ${item.name} from the comparison`}
              onClick={() => removeFromCompare(item.id)}
            >
              Remove
            </button>
          </li>
        ))}
      </ul>
      <p role="status" className="catalog-compare-tray__notice">
        {notice}
      </p>
      <div className="catalog-compare-tray__actions">
        {items.length >= 2 ? (
          <Link className="catalog-button" to={comparePath(items.map((item) => item.id))}>
            Compare side by side
          </Link>
        ) : (
          <span>Choose one more boat to compare.</span>
        )}
        <button type="button" className="catalog-link-button" onClick={clearCompare}>
          Clear
        </button>
      </div>
    </aside>
  );
}
