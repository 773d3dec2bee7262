import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    env: { NODE_ENV: 'test' },
    // PGlite: one migrated database dumped per run, the start of every test file's own (test/global-setup.ts).
    globalSetup: ['test/global-setup.ts'],
    // Autoload's and Kysely's FileMigrationProvider's dynamic import() must go through Vite,
    // or Node meets the plugin, route and migration files' .ts.
    server: { deps: { inline: ['@fastify/autoload', 'kysely'] } },
    // One shared PostgreSQL database is truncated between tests, so its test files must take
    // turns; on PGlite each file has its own in-memory database and files run in parallel.
    fileParallelism: !process.env.DATABASE_URL,
    // A fresh PGlite database takes a few seconds to create (far more on a loaded machine). With the
    // fixtures of test/support/fixtures.ts the file's app is built inside its first test, so a test
    // gets as long as a hook.
    hookTimeout: 60_000,
    testTimeout: 60_000,
  },
});
