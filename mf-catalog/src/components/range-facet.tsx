import { useId, useState } from 'react';

interface RangeFacetProps {
  label: string;
  /** the address's parameters of its ends (`priceMin`, `priceMax`), which the typed fields send in the page's GET form */
  names: { min: string; max: string };
  /** the id of that form */
  form: string;
  unit: string;
  /** the bounds of the slider (the facet's min and max under the other choices) */
  bounds: { min: number; max: number };
  step: number;
  /** the chosen range; undefined ends are open */
  value: { min: number | undefined; max: number | undefined };
  onCommit: (range: { min: number | undefined; max: number | undefined }) => void;
}

/**
 * A range with two sliders and two typed fields, each labelled. A slider commits when released
 * (pointer or key), a field on Enter or leaving it; an end at its bound means no limit.
 */
export function RangeFacet({ label, names, form, unit, bounds, step, value, onCommit }: RangeFacetProps) {
  const id = useId();
  const [draft, setDraft] = useState({ min: value.min ?? bounds.min, max: value.max ?? bounds.max });
  // What the typed fields show: empty for an end without a limit (its bound is the placeholder),
  // so the page's form, sent before hydration or without JavaScript, sends no limit for it.
  const [typed, setTyped] = useState(textOf(value));
  const [follows, setFollows] = useState(value);
  if (follows.min !== value.min || follows.max !== value.max) {
    setFollows(value);
    setDraft({ min: value.min ?? bounds.min, max: value.max ?? bounds.max });
    setTyped(textOf(value));
  }
  const commit = (next = draft) => {
    const min = Math.min(next.min, next.max);
    const max = Math.max(next.min, next.max);
    onCommit({ min: min > bounds.min ? min : undefined, max: max < bounds.max ? max : undefined });
  };
  const field = (end: 'min' | 'max', text: string) => (
    <label className="catalog-range__field">
      <span>
        {text} ({unit})
      </span>
      <input
        type="number"
        name={names[end]}
        form={form}
        // The value that means "no limit": left out of the address when the form is sent before hydration.
        data-no-limit={bounds[end]}
        inputMode="decimal"
        min={bounds.min}
        max={bounds.max}
        step={step}
        placeholder={String(bounds[end])}
        value={typed[end]}
        onChange={(event) => {
          setTyped({ ...typed, [end]: event.target.value });
          setDraft({ ...draft, [end]: event.target.value === '' ? bounds[end] : Number(event.target.value) });
        }}
        onBlur={() => commit()}
        onKeyDown={(event) => {
          if (event.key !== 'Enter') return;
          // This commits the range; the field's form (the page's GET form) is not sent as well.
          event.preventDefault();
          commit();
        }}
      />
    </label>
  );
  const slider = (end: 'min' | 'max', text: string) => (
    <input
      type="range"
      aria-label={`${label}: ${text.toLowerCase()}`}
      aria-valuetext={`${draft[end]} ${unit}`}
      min={bounds.min}
      max={bounds.max}
      step={step}
      value={draft[end]}
      onChange={(event) => {
        setDraft({ ...draft, [end]: Number(event.target.value) });
        setTyped({ ...typed, [end]: event.target.value });
      }}
      onPointerUp={() => commit()}
      onKeyUp={() => commit()}
    />
  );
  return (
    <fieldset className="catalog-facet catalog-range" aria-describedby={`${id}-bounds`}>
      <legend>{label}</legend>
      <p id={`${id}-bounds`} className="catalog-visually-hidden">
        From {bounds.min} to {bounds.max} {unit}
      </p>
      {slider('min', 'Minimum')}
      {slider('max', 'Maximum')}
      <div className="catalog-range__fields">
        {field('min', 'From')}
        {field('max', 'To')}
      </div>
    </fieldset>
  );
}

/** A chosen range's ends as the typed fields show them: empty where there is no limit. */
function textOf(value: { min: number | undefined; max: number | undefined }): { min: string; max: string } {
  return { min: value.min?.toString() ?? '', max: value.max?.toString() ?? '' };
}
