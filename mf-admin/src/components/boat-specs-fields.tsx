import { useId } from 'react';
import {
  BOAT_CONDITION_NAMES,
  BOAT_CONDITIONS,
  CE_CATEGORIES,
  FUEL_TYPE_NAMES,
  FUEL_TYPES,
  HULL_MATERIAL_NAMES,
  HULL_MATERIALS,
} from '@boatshop/contract/constants';
import { SPEC_NUMBER_FIELDS, type BoatSpecsDraft } from '../products/boat-specs-draft';
import './boat-specs-fields.css';

interface BoatSpecsFieldsProps {
  value: BoatSpecsDraft;
  onChange: (draft: BoatSpecsDraft) => void;
}

type Key = keyof BoatSpecsDraft;

/** The boat's specifications in the product form: metric, every field may stay empty (unknown). */
export function BoatSpecsFields({ value, onChange }: BoatSpecsFieldsProps) {
  const ids = useId();
  const set = (key: Key) => (event: { target: { value: string } }) => onChange({ ...value, [key]: event.target.value });

  const textField = (key: Key, label: string, extra: { maxLength?: number; autoComplete?: string } = {}) => (
    <div className="bs-field">
      <label htmlFor={`${ids}-${key}`}>{label}</label>
      <input
        id={`${ids}-${key}`}
        type="text"
        value={value[key]}
        onChange={set(key)}
        maxLength={extra.maxLength ?? 120}
        autoComplete="off"
      />
    </div>
  );
  const numberField = (key: keyof typeof SPEC_NUMBER_FIELDS) => {
    const rule = SPEC_NUMBER_FIELDS[key];
    return (
      <div className="bs-field">
        <label htmlFor={`${ids}-${key}`}>{rule.label}</label>
        <input
          id={`${ids}-${key}`}
          type="text"
          inputMode={rule.whole ? 'numeric' : 'decimal'}
          value={value[key]}
          onChange={set(key)}
          autoComplete="off"
        />
      </div>
    );
  };
  const selectField = (key: Key, label: string, options: readonly string[], names?: Record<string, string>) => (
    <div className="bs-field">
      <label htmlFor={`${ids}-${key}`}>{label}</label>
      <select id={`${ids}-${key}`} value={value[key]} onChange={set(key)}>
        <option value="">Unknown</option>
        {options.map((option) => (
          <option key={option} value={option}>
            {names?.[option] ?? option}
          </option>
        ))}
      </select>
    </div>
  );

  return (
    <fieldset className="admin-specs">
      <legend>Specifications</legend>
      <p className="bs-hint">Metric units. Leave a field empty when it is not known.</p>
      <div className="admin-specs__grid">
        {textField('builder', 'Builder')}
        {textField('model', 'Model')}
        {numberField('yearBuilt')}
        {selectField('condition', 'Condition', BOAT_CONDITIONS, BOAT_CONDITION_NAMES)}
        {numberField('lengthM')}
        {numberField('beamM')}
        {numberField('draftM')}
        {numberField('displacementKg')}
        {selectField('hullMaterial', 'Hull material', HULL_MATERIALS, HULL_MATERIAL_NAMES)}
        {numberField('engineCount')}
        {textField('engineMake', 'Engine make')}
        {numberField('enginePowerHp')}
        {numberField('engineHours')}
        {selectField('fuel', 'Fuel', FUEL_TYPES, FUEL_TYPE_NAMES)}
        {numberField('cabins')}
        {numberField('berths')}
        {numberField('heads')}
        {selectField('ceCategory', 'CE design category', CE_CATEGORIES)}
        {textField('locationMarina', 'Marina')}
        {textField('locationCountry', 'Country (two-letter code)', { maxLength: 2 })}
      </div>
    </fieldset>
  );
}
