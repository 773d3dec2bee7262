import { createApiClient } from '@boatshop/contract/client';

/**
 * The core's own client of the API, for the session. Not exported: every app bundles its own
 * client from `@boatshop/contract/client`, so a remote's calls follow the contract it was built
 * with, not the shell's (`isApiError` is structural, so an error from any copy is recognised).
 */
export const client = createApiClient();
