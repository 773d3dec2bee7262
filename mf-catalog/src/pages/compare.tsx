import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { useStoreAfterHydration } from '@boatshop/web-shared/after-hydration';
import type { Product } from '@boatshop/contract';
import { UNIT_SYSTEMS, type UnitSystem } from '@boatshop/contract/constants';
import { formatPrice } from '@boatshop/state';
import { client } from '../api';
import { $units, setUnits } from '../catalog/units';
import { compareRows } from '../keep/compare-table';
import { idsFromAddress, removeFromCompare } from '../keep/compare';
import { AvailabilityLabel } from '../components/availability';
import { FavouriteButton } from '../components/favourite-button';
import '../styles.css';
import '../components/keep.css';

type State = { status: 'loading' } | { status: 'failed' } | { status: 'ready'; products: Product[] };

const UNIT_NAMES: Record<UnitSystem, string> = { metric: 'Metric', imperial: 'Imperial' };

/**
 * /compare?ids=a,b,c: up to three boats side by side, their specifications in one table. The
 * boats come from the address, so the link can be shared; removing one changes the address.
 */
export default function Compare() {
  const [params, setParams] = useSearchParams();
  const ids = idsFromAddress(params.get('ids'));
  const key = ids.join(',');
  // The answer is kept with the address it is for: another address reads as loading at once.
  const [answer, setAnswer] = useState<{ key: string; state: State } | null>(null);
  const units = useStoreAfterHydration($units, 'metric' as UnitSystem);

  useEffect(() => {
    if (!key) return;
    const wanted = key.split(',');
    const controller = new AbortController();
    client.products.byIds(wanted, { signal: controller.signal }).then(
      ({ data }) => {
        const byId = new Map(data.map((product) => [product.id, product]));
        setAnswer({ key, state: { status: 'ready', products: wanted.flatMap((id) => byId.get(id) ?? []) } });
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        console.error('Loading the boats to compare failed', error);
        setAnswer({ key, state: { status: 'failed' } });
      },
    );
    return () => controller.abort();
  }, [key]);
  const state: State = !key ? { status: 'ready', products: [] } : answer?.key === key ? answer.state : { status: 'loading' };

  function remove(id: string) {
    removeFromCompare(id);
    const rest = ids.filter((kept) => kept !== id);
    setParams(rest.length ? { ids: rest.join(',') } : {});
  }

  return (
    <section className="catalog-page catalog-compare" aria-labelledby="catalog-compare-title">
      <h1 id="catalog-compare-title">Compare boats</h1>
      {state.status === 'loading' ? (
        <p aria-live="polite">Loading…</p>
      ) : state.status === 'failed' ? (
        <p role="alert">The boats could not be loaded. Reload the page to try again.</p>
      ) : state.products.length === 0 ? (
        <p>
          No boats to compare yet. Choose up to three with “Compare” on the <Link to="/search">boats’ cards</Link>.
        </p>
      ) : (
        <>
          <fieldset className="catalog-units catalog-compare__units">
            <legend className="catalog-visually-hidden">Units</legend>
            {UNIT_SYSTEMS.map((system) => (
              <label key={system} className="catalog-units__option">
                <input type="radio" name="compare-units" value={system} checked={units === system} onChange={() => setUnits(system)} />
                {UNIT_NAMES[system]}
              </label>
            ))}
          </fieldset>
          <div className="catalog-compare__scroll">
            <table className="catalog-compare__table">
              <caption className="catalog-visually-hidden">Specifications of the boats compared</caption>
              <thead>
                <tr>
                  <td />
                  {state.products.map((product) => (
                    <th key={product.id} scope="col">
                      <img src={product.thumbnailUrl} alt="" width={240} height={180} />
                      <Link to={`/product/${product.id}`}>{product.name}</Link>
                      <span className="catalog-compare__actions">
                        <FavouriteButton product={product} />
                        <button
                          type="button"
                          className="catalog-link-button"
                          aria-label={`Remove ${product.name} from the comparison`}
                          onClick={() => remove(product.id)}
                        >
                          Remove
                        </button>
                      </span>
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                <tr>
                  <th scope="row">Price</th>
                  {state.products.map((product) => (
                    <td key={product.id}>
                      {formatPrice(product.priceCents)}
                      <AvailabilityLabel product={product} />
                    </td>
                  ))}
                </tr>
                {compareRows(state.products, units).map((row) => (
                  <tr key={row.key}>
                    <th scope="row">{row.label}</th>
                    {row.cells.map((cell, index) => (
                      <td key={state.products[index]!.id}>{cell ?? '–'}</td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </section>
  );
}
