import { createRequest } from '@boatshop/contract/request';

/**
 * The core's own requests to the API, for the session: the request core of the typed client
 * alone (`@boatshop/contract/request`), not the whole client with a method per route, since this
 * chunk is on every page. Not exported: every app bundles its own client from
 * `@boatshop/contract/client`, so a remote's calls follow the contract it was built with, not the
 * shell's (`isApiError` is structural, so an error from any copy is recognised).
 */
export const request = createRequest();
