import { persistentAtom } from '@nanostores/persistent';
import { UNIT_SYSTEMS, type UnitSystem } from '@boatshop/contract/constants';

/**
 * The visitor's units for boat figures, kept in localStorage so every page and later visit shows
 * the same. Metric unless the visitor chose otherwise; an unknown stored value reads as metric.
 */
export const $units = persistentAtom<UnitSystem>('boatshop:units', 'metric', {
  encode: (value) => value,
  decode: (value) => ((UNIT_SYSTEMS as readonly string[]).includes(value) ? (value as UnitSystem) : 'metric'),
});

export function setUnits(units: UnitSystem): void {
  $units.set(units);
}
