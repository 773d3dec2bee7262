import { useId } from 'react';
import { useStoreAfterHydration } from '@boatshop/web-shared/after-hydration';
import type { BoatSpecs } from '@boatshop/contract';
import { boatSpecRows, UNIT_SYSTEMS, type UnitSystem } from '@boatshop/contract/constants';
import { $units, setUnits } from '../catalog/units';
import './boat-spec-table.css';

const UNIT_NAMES: Record<UnitSystem, string> = { metric: 'Metric', imperial: 'Imperial' };

/** The boat's specifications as a table, in the visitor's units (a switch above it); nothing when none is known. */
export function BoatSpecTable({ specs }: { specs: BoatSpecs | undefined }) {
  // The server renders metric; a visitor's other choice shows once the page has hydrated.
  const units = useStoreAfterHydration($units, 'metric' as UnitSystem);
  const titleId = useId();
  const rows = specs ? boatSpecRows(specs, units) : [];
  if (rows.length === 0) return null;
  return (
    <section className="catalog-specs" aria-labelledby={titleId}>
      <div className="catalog-specs__head">
        <h2 id={titleId}>Specifications</h2>
        <fieldset className="catalog-units">
          <legend className="catalog-visually-hidden">Units</legend>
          {UNIT_SYSTEMS.map((system) => (
            <label key={system} className="catalog-units__option">
              <input type="radio" name={`${titleId}-units`} value={system} checked={units === system} onChange={() => setUnits(system)} />
              {UNIT_NAMES[system]}
            </label>
          ))}
        </fieldset>
      </div>
      <table className="catalog-specs__table">
        <tbody>
          {rows.map((row) => (
            <tr key={row.key}>
              <th scope="row">{row.label}</th>
              <td>{row.text}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
