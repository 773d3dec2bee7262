// Every country (ISO 3166-1 alpha-2) and its regions, from the country-region-data dataset: the
// pickers of checkout's addresses and of the account's address book. Imported by its own subpath
// (`@boatshop/web-shared/countries`), so only the apps with an address form ship the dataset.
import { allCountries } from 'country-region-data';

export interface RegionOption {
  /** the region's code where the dataset has one, else its name: what the address stores */
  value: string;
  label: string;
}

export interface CountryOption {
  /** ISO 3166-1 alpha-2, the value the API and the card provider expect */
  code: string;
  name: string;
  regions: RegionOption[];
}

export const COUNTRIES: readonly CountryOption[] = allCountries.map(([name, code, regions]) => ({
  code,
  name,
  regions: regions.map(([regionName, regionCode]) => ({ value: regionCode || regionName, label: regionName })),
}));

const byCode = new Map(COUNTRIES.map((country) => [country.code, country]));

export function regionsOf(countryCode: string): RegionOption[] {
  return byCode.get(countryCode)?.regions ?? [];
}
