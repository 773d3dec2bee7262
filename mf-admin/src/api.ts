import { createApiClient } from '@boatshop/contract/client';

/** This remote's client of the API, typed by the contract it was built with. */
export const client = createApiClient();
