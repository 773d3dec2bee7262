// Keep and compare: plain values shared by the API and the front ends.

/** How many boats the compare page sets side by side. */
export const COMPARE_MAX = 3;
/** How many boats one account may keep as favourites. */
export const MAX_FAVOURITES = 200;
/** How many searches one account may save. */
export const MAX_SAVED_SEARCHES = 20;
export const SAVED_SEARCH_NAME_MAX_LENGTH = 80;
/** The search page's address a saved search returns to (`/search…`), at most this long. */
export const SAVED_SEARCH_PATH_MAX_LENGTH = 1000;
/** At most this many boats are listed in one alert e-mail (the newest); the link shows the rest. */
export const ALERT_MAX_BOATS = 20;
