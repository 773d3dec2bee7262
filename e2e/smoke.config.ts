import { defineConfig, devices } from '@playwright/test';

// The smoke journeys (smoke/<remote>.smoke.ts): the main journeys of each remote, quick and
// read-only as far as the shop's data goes, run against a shell that is already running:
//   - by `npm run promote` (packages/release-registry/src/smoke.ts) against the LIVE shell, with
//     the operator's signed preview cookie, so that only this browser gets the candidate release;
//   - by the version-skew stage of `npm test` (scripts/test-skew.ts) against mixed releases.
// SMOKE_SHELL_URL names the shell; no stack is started here.
const shellUrl = process.env.SMOKE_SHELL_URL;
if (!shellUrl) throw new Error('SMOKE_SHELL_URL is not set: the smoke journeys run against a running shell');

export default defineConfig({
  testDir: './smoke',
  testMatch: '*.smoke.ts',
  workers: Number(process.env.SMOKE_WORKERS ?? 1),
  fullyParallel: true,
  forbidOnly: true,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  reporter: 'list',
  outputDir: process.env.SMOKE_OUTPUT_DIR ?? 'test-results/smoke',
  use: {
    baseURL: shellUrl,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        launchOptions: {
          executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
          args: [
            '--no-sandbox',
            '--disable-gpu',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
            '--no-first-run',
            '--disable-quic',
          ],
        },
      },
    },
  ],
});
