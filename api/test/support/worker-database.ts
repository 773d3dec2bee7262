import { BASE_DATABASE_URL, workerDatabaseUrl } from './worker-databases.js';

// A setup file (vitest.config.ts): before a test file runs, DATABASE_URL names this worker's own
// PostgreSQL database (test/support/worker-databases.ts), for the app and the tests that read it.
const baseUrl = process.env[BASE_DATABASE_URL];
if (baseUrl) process.env.DATABASE_URL = workerDatabaseUrl(baseUrl, Number(process.env.VITEST_POOL_ID));
