import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // The client reads document.cookie for the csrf token; jsdom gives the tests a document.
    environment: 'jsdom',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
  },
});
