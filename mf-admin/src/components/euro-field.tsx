/** A euro amount field: the sign before it, the whole text selected on focus so typing replaces it. */
export function EuroField({
  id,
  label,
  value,
  onChange,
  hint,
  min = '0.01',
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  hint: string;
  /** The smallest amount the browser offers. */
  min?: string;
}) {
  return (
    <div className="bs-field">
      <label htmlFor={id}>{label}</label>
      <div className="admin-money">
        <span className="admin-money__prefix" aria-hidden="true">
          €
        </span>
        <input
          id={id}
          type="number"
          inputMode="decimal"
          min={min}
          step="0.01"
          value={value}
          onChange={(event) => onChange(event.target.value)}
          onFocus={(event) => event.currentTarget.select()}
          required
          aria-describedby={`${id}-hint`}
        />
      </div>
      <p id={`${id}-hint`} className="bs-hint">
        {hint}
      </p>
    </div>
  );
}
