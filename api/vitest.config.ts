import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    env: { NODE_ENV: 'test' },
    // PGlite: one migrated database dumped per run, the start of every test file's own; PostgreSQL:
    // one migrated database per worker (test/global-setup.ts, test/support/worker-databases.ts).
    globalSetup: ['test/global-setup.ts'],
    setupFiles: ['test/support/worker-database.ts', 'test/support/fresh-modules.ts'],
    // Files share their worker's process instead of starting one each: node, vitest, every
    // dependency and PGlite's WebAssembly, loaded per file, cost as much CPU as the tests did (PGlite
    // run 341 s of CPU isolated, 171 s shared; PostgreSQL 177 s and 83 s). The project's own modules
    // are still evaluated afresh for every file (test/support/fresh-modules.ts).
    isolate: false,
    // Autoload's and Kysely's FileMigrationProvider's dynamic import() must go through Vite,
    // or Node meets the plugin, route and migration files' .ts.
    server: { deps: { inline: ['@fastify/autoload', 'kysely'] } },
    // Every file has a database of its own (PGlite) or its worker's (PostgreSQL), so files run in
    // parallel on both. Set here rather than left to vitest (cores - 1: a single worker on these
    // 2-core machines), and read by the global set-up, which makes one PostgreSQL database per
    // worker. Three, measured on 2 cores: PostgreSQL files spend much of their time waiting on
    // the server (one worker 265 s, two 136 s, three 102 s, before the shared processes); PGlite
    // is CPU-bound and about as fast with two as with three.
    maxWorkers: 3,
    // A fresh PGlite database takes a few seconds to create (far more on a loaded machine). With the
    // fixtures of test/support/fixtures.ts the file's app is built inside its first test, so a test
    // gets as long as a hook.
    hookTimeout: 60_000,
    testTimeout: 60_000,
    // In CI (.ci/run sets CI=1), a failed test runs once more, as the journeys do: a test that
    // fails twice still fails the run, and one that passed on its second try is printed, with
    // its first error, by test/support/flaky-reporter.ts, so it can be found and fixed.
    retry: process.env.CI ? 1 : 0,
    reporters: ['default', './test/support/flaky-reporter.ts'],
  },
});
