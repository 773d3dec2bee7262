import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    // Webhook retries and the OIDC flow involve several real HTTP round trips on a shared machine.
    testTimeout: 20_000,
  },
});
