import { defineConfig } from 'vitest/config';

// The repository-level tests (the ESLint boundary policies, the style scopes, the paths named in
// comments and Markdown, the length of source files), run by the `lint` stage of
// `npm test` as `vitest run --config test/vitest.config.ts`. The apps keep their own configs.
export default defineConfig({
  test: {
    root: new URL('..', import.meta.url).pathname,
    include: ['test/**/*.test.ts'],
    // One ESLint instance resolves every workspace's imports: the first lint takes a few seconds.
    testTimeout: 60_000,
  },
});
