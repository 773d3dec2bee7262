import { cleanTestStorage, getTestStorage, useTestStorageEngine } from '@nanostores/persistent';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EMPTY_BOAT_SPECS } from '@boatshop/contract/constants';
import { $units } from '../catalog/units';
import { BoatSpecTable } from './boat-spec-table';

beforeAll(() => useTestStorageEngine());
afterEach(() => {
  cleanup();
  cleanTestStorage();
  $units.set('metric');
});

const SPECS = { ...EMPTY_BOAT_SPECS, builder: 'Halvard', lengthM: 9.45, displacementKg: 3400 };

function cell(label: string) {
  const row = screen.getByRole('rowheader', { name: label }).closest('tr')!;
  return within(row).getByRole('cell').textContent;
}

describe('the specification table', () => {
  it('shows the known figures in metric first, and in imperial once the visitor switches, remembering the choice', () => {
    render(<BoatSpecTable specs={SPECS} />);
    expect(cell('Length overall')).toBe('9.45 m');
    expect(screen.queryByRole('rowheader', { name: 'Beam' })).toBeNull();

    fireEvent.click(screen.getByRole('radio', { name: 'Imperial' }));
    expect(cell('Length overall')).toBe('31.0 ft');
    expect(cell('Displacement')).toBe('7,496 lb');
    expect(getTestStorage()['boatshop:units']).toBe('imperial');
  });

  it('shows nothing when no specification is known', () => {
    const { container } = render(<BoatSpecTable specs={EMPTY_BOAT_SPECS} />);
    expect(container.innerHTML).toBe('');
  });
});
