import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // The API client reads document.cookie and the cart lives in a browser; jsdom gives both.
    environment: 'jsdom',
    include: ['src/**/*.test.ts'],
  },
});
