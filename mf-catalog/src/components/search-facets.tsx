import { useEffect, useId } from 'react';
import { useStore } from '@nanostores/react';
import { Link, useParams, useSearchParams } from 'react-router-dom';
import { BOAT_CONDITION_NAMES, countryName, SEARCH_SORT_NAMES, SEARCH_SORTS, type BoatCondition } from '@boatshop/contract/constants';
import { client } from '../api';
import {
  $searchSummary,
  facetParams,
  filterToRelax,
  LISTING_FORM,
  listValues,
  loadSummary,
  searchQueryOf,
  type FacetParam,
} from '../catalog/facets';
import { listingKey } from '../catalog/listing';
import { RangeFacet } from './range-facet';
import './search-facets.css';

const CATEGORY_NAMES: Record<string, string> = { 'sailing-boats': 'Sailing boats', yachts: 'Yachts' };

/**
 * The search page's facets: the number of matches, the sort, and each facet with its counts under
 * the other choices. Every choice is written to the address (a new history entry, so Back undoes it).
 * Each control belongs to the page's GET form (LISTING_FORM) under its address parameter, so the
 * choices work as a plain form before hydration and without JavaScript ("Apply filters").
 */
export function SearchFacets() {
  const ids = useId();
  const { filterType } = useParams();
  const [searchParams, setSearchParams] = useSearchParams();
  const q = searchParams.get('q') ?? '';
  const hideSold = searchParams.get('available') === '1';
  // The choices as the page reads them (an empty field a form sent is no choice).
  const chosenFacets = facetParams(searchParams);
  const facets = chosenFacets.toString();
  const key = listingKey({ filterType, q, hideSold, cursor: searchParams.get('cursor'), facets });
  const summary = useStore($searchSummary);

  // With no facet chosen the list comes from the plain list API: ask for the counts alone.
  useEffect(() => {
    if (facets) return;
    void loadSummary(key, searchQueryOf('', filterType, q, hideSold), (query, signal) => client.find.search(query, { signal }));
  }, [key, facets, filterType, q, hideSold]);

  const set = (changes: Partial<Record<FacetParam, string | undefined>>) => {
    const next = new URLSearchParams(searchParams);
    next.delete('cursor');
    // The empty fields of an address a form sent (no choice) are left out of the next one.
    for (const [name, value] of [...next]) if (value === '') next.delete(name);
    for (const [name, value] of Object.entries(changes)) {
      if (value === undefined || value === '') next.delete(name);
      else next.set(name, value);
    }
    // A range field commits on Enter and again on blur: the same address is no new history entry.
    if (next.toString() !== searchParams.toString()) setSearchParams(next);
  };
  const listOf = (name: 'builder' | 'country') => listValues(searchParams, name);
  const toggle = (name: 'builder' | 'country', value: string, on: boolean) => {
    const values = new Set(listOf(name));
    if (on) values.add(value);
    else values.delete(value);
    set({ [name]: [...values].join(',') || undefined });
  };

  const current = summary.key === key ? summary : null;
  // The previous choice's facets stay on screen until the new counts arrive, so nothing jumps.
  const data = summary.facets;
  const keep = (() => {
    const params = new URLSearchParams(searchParams);
    params.delete('cursor');
    const text = params.toString();
    return text ? `?${text}` : '';
  })();
  const chosen = {
    category: filterType !== undefined,
    builder: listOf('builder').length > 0,
    condition: chosenFacets.has('condition'),
    country: listOf('country').length > 0,
  };
  const relax = current && current.total === 0 && data ? filterToRelax(data, chosen) : null;
  const num = (name: FacetParam) => (chosenFacets.has(name) ? Number(chosenFacets.get(name)) : undefined);

  return (
    <aside className="catalog-facets" aria-label="Filters">
      <p className="catalog-result-count" role="status" aria-live="polite">
        {current ? `${current.total} ${current.total === 1 ? 'boat' : 'boats'}` : ''}
      </p>
      {current && current.total === 0 ? (
        <p className="catalog-relax">
          {relax
            ? `Nothing matches every choice. Without the ${relax.name} filter, ${relax.count} ${relax.count === 1 ? 'boat matches' : 'boats match'}.`
            : 'Nothing matches every choice. Try widening the price, length or year range.'}
        </p>
      ) : null}

      <div className="catalog-facet">
        <label htmlFor={`${ids}-sort`}>Sort by</label>
        <select
          id={`${ids}-sort`}
          name="sort"
          form={LISTING_FORM}
          value={chosenFacets.get('sort') ?? ''}
          onChange={(event) => set({ sort: event.target.value || undefined })}
        >
          {SEARCH_SORTS.map((sort) => (
            // The default sort is no parameter at all.
            <option key={sort} value={sort === 'newest' ? '' : sort}>
              {SEARCH_SORT_NAMES[sort]}
            </option>
          ))}
        </select>
      </div>

      {data ? (
        <>
          <nav className="catalog-facet" aria-label="Category counts">
            <p className="catalog-facet__title">Category</p>
            <ul>
              {data.category.map((facet) => (
                <li key={facet.value}>
                  <Link to={`/search/${facet.value}${keep}`} aria-current={filterType === facet.value ? 'page' : undefined}>
                    {CATEGORY_NAMES[facet.value] ?? facet.value} ({countText(facet)})
                  </Link>
                </li>
              ))}
            </ul>
          </nav>

          <fieldset className="catalog-facet">
            <legend>Condition</legend>
            <label>
              <input
                type="radio"
                name="condition"
                form={LISTING_FORM}
                value=""
                checked={!chosenFacets.has('condition')}
                onChange={() => set({ condition: undefined })}
              />
              Any
            </label>
            {data.condition.map((facet) => (
              <label key={facet.value}>
                <input
                  type="radio"
                  name="condition"
                  form={LISTING_FORM}
                  value={facet.value}
                  checked={chosenFacets.get('condition') === facet.value}
                  onChange={() => set({ condition: facet.value })}
                />
                {BOAT_CONDITION_NAMES[facet.value as BoatCondition] ?? facet.value} ({countText(facet)})
              </label>
            ))}
          </fieldset>

          {data.price.min !== null && data.price.max !== null ? (
            <RangeFacet
              label="Price"
              names={{ min: 'priceMin', max: 'priceMax' }}
              form={LISTING_FORM}
              unit="€"
              bounds={{ min: Math.floor(data.price.min / 100), max: Math.ceil(data.price.max / 100) }}
              step={1000}
              value={{ min: num('priceMin'), max: num('priceMax') }}
              onCommit={(range) => set({ priceMin: range.min?.toString(), priceMax: range.max?.toString() })}
            />
          ) : null}
          {data.length.min !== null && data.length.max !== null ? (
            <RangeFacet
              label="Length overall"
              names={{ min: 'lengthMin', max: 'lengthMax' }}
              form={LISTING_FORM}
              unit="m"
              bounds={{ min: Math.floor(data.length.min), max: Math.ceil(data.length.max) }}
              step={0.5}
              value={{ min: num('lengthMin'), max: num('lengthMax') }}
              onCommit={(range) => set({ lengthMin: range.min?.toString(), lengthMax: range.max?.toString() })}
            />
          ) : null}
          {data.year.min !== null && data.year.max !== null ? (
            <RangeFacet
              label="Year built"
              names={{ min: 'yearMin', max: 'yearMax' }}
              form={LISTING_FORM}
              unit="year"
              bounds={{ min: data.year.min, max: data.year.max }}
              step={1}
              value={{ min: num('yearMin'), max: num('yearMax') }}
              onCommit={(range) => set({ yearMin: range.min?.toString(), yearMax: range.max?.toString() })}
            />
          ) : null}

          <div className="catalog-facet">
            <label htmlFor={`${ids}-cabins`}>Cabins, at least</label>
            <select
              id={`${ids}-cabins`}
              name="cabinsMin"
              form={LISTING_FORM}
              value={chosenFacets.get('cabinsMin') ?? ''}
              onChange={(event) => set({ cabinsMin: event.target.value || undefined })}
            >
              <option value="">Any</option>
              {data.cabins.map((facet) => (
                <option key={facet.value} value={facet.value}>
                  {facet.value}+ ({countText(facet)})
                </option>
              ))}
            </select>
          </div>

          <fieldset className="catalog-facet">
            <legend>VAT</legend>
            <label>
              <input
                type="checkbox"
                name="vatPaid"
                form={LISTING_FORM}
                value="1"
                checked={chosenFacets.get('vatPaid') === '1'}
                onChange={(event) => set({ vatPaid: event.target.checked ? '1' : undefined })}
              />
              VAT paid ({data.vatPaid})
            </label>
          </fieldset>

          <CheckboxFacet
            legend="Builder"
            param="builder"
            facets={data.builder}
            chosen={listOf('builder')}
            name={(value) => value}
            onToggle={(value, on) => toggle('builder', value, on)}
          />
          <CheckboxFacet
            legend="Country"
            param="country"
            facets={data.country}
            chosen={listOf('country')}
            name={countryName}
            onToggle={(value, on) => toggle('country', value, on)}
          />
        </>
      ) : null}
      {/* Without JavaScript nothing sends a choice as it is made: this button sends them all. */}
      <noscript>
        <button type="submit" form={LISTING_FORM} className="catalog-button">
          Apply filters
        </button>
      </noscript>
      {facets ? (
        // A link to the list without facets, so it works before hydration and without JavaScript.
        <Link
          className="catalog-button"
          to={{ search: `${new URLSearchParams([...(q ? [['q', q]] : []), ...(hideSold ? [['available', '1']] : [])])}` }}
        >
          Clear filters
        </Link>
      ) : null}
    </aside>
  );
}

/** A count as shown: an estimate (a facet counting very many boats) reads "about". */
function countText(facet: { count: number; approximate?: boolean | undefined }): string {
  return facet.approximate ? `about ${facet.count}` : String(facet.count);
}

interface CheckboxFacetProps {
  legend: string;
  /** the address parameter the form sends each chosen value in */
  param: 'builder' | 'country';
  facets: { value: string; count: number; approximate?: boolean | undefined }[];
  chosen: string[];
  name: (value: string) => string;
  onToggle: (value: string, on: boolean) => void;
}

/** A facet where any of several values may be chosen, each with its count. */
function CheckboxFacet({ legend, param, facets, chosen, name, onToggle }: CheckboxFacetProps) {
  return (
    <fieldset className="catalog-facet">
      <legend>{legend}</legend>
      {/* A long list (every builder) scrolls in its own box instead of pushing the results down. */}
      <div className="catalog-facet__options">
        {facets.map((facet) => (
          <label key={facet.value}>
            <input
              type="checkbox"
              name={param}
              form={LISTING_FORM}
              value={facet.value}
              checked={chosen.includes(facet.value)}
              onChange={(event) => onToggle(facet.value, event.target.checked)}
            />
            {name(facet.value)} ({countText(facet)})
          </label>
        ))}
      </div>
    </fieldset>
  );
}
