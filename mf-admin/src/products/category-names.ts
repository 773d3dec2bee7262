import type { Category } from '@boatshop/contract/constants';

/** How the admin pages name each category (the shop's own words). */
export const CATEGORY_NAMES: Record<Category, string> = {
  'sailing-boats': 'Sailing boats',
  yachts: 'Yachts',
};
