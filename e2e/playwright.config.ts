import { defineConfig, devices } from '@playwright/test';
import { REPO_ROOT, SERVICE_PORTS, prepareStackEnv, shopUrl } from './support/stack';

await prepareStackEnv();

const portEnv = Object.fromEntries(Object.values(SERVICE_PORTS).map(({ env }) => [env, process.env[env] ?? '']));

export default defineConfig({
  testDir: './tests',
  // Two workers share the machine's two cores with the stack; journeys are few and long.
  workers: 2,
  fullyParallel: false,
  forbidOnly: Boolean(process.env.CI),
  // One retry on CI only, for an intermittent stall in which the shell's server leaves a page's
  // HTML unanswered for a minute while two workers run (the request never gets a status). A
  // retried journey is reported as flaky, never hidden. Locally a failure stays a failure.
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['html', { open: 'never' }]],
  use: {
    baseURL: shopUrl(),
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
          // Without the background-networking flags Chromium floods the closed network.
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
  webServer: {
    // The whole shop as `npm start` runs it: build, dev services, API, five front-end servers.
    command: 'node --import tsx scripts/start.mjs',
    cwd: REPO_ROOT,
    url: `${shopUrl()}/api/health`,
    timeout: 300_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
    gracefulShutdown: { signal: 'SIGINT', timeout: 15_000 },
    // Every journey signs its roles in from the same loopback address: the per-address limit on
    // the sign-in routes (10 a minute by default) would refuse a fast run, not an attacker.
    // DATABASE_URL: the fresh database of prepareStackEnv (on PostgreSQL with E2E_DATABASE_URL,
    // else blank: a fresh PGlite), never the URL the shell running `npm test` exported for the
    // API tests (whose database holds no demo catalogue).
    env: {
      ...portEnv,
      PGLITE_DIR: process.env.PGLITE_DIR ?? '',
      DATABASE_URL: process.env.BOATSHOP_E2E_STACK_DATABASE_URL ?? '',
      LOG_LEVEL: 'warn',
      AUTH_RATE_LIMIT_PER_MINUTE: '1000',
      // Likewise the open holds of unpaid one-off boats: every journey's shopper comes from the
      // same address, and the demo shopper is signed in by two workers at once. The API tests
      // prove the limits; here they would only refuse a fast run.
      MAX_OPEN_HOLDS_PER_ADDRESS: '1000',
      MAX_OPEN_HOLDS_PER_ACCOUNT: '1000',
      // The shell's server renders a catalogue page only when its data arrives within 300 ms and
      // the render ends within 300 ms; on a CI machine running two browsers, the stack and
      // PostgreSQL on two cores that is often missed, and the page comes rendered by the browser
      // instead (correct, but not what a journey about the server's page is looking at). The
      // journeys give both 3 s; the fallbacks themselves are proven by the web-server's tests.
      HEAD_API_TIMEOUT_MS: '3000',
      SSR_DEADLINE_MS: '3000',
      // Likewise the API's load shedding (a 503 OVERLOADED when its event loop lags a second):
      // on such a machine it answers a journey's order or session check now and then, and an
      // admin page then shows the sign-in form. Off here (0); api/test/plugins/under-pressure.test.ts
      // proves it.
      MAX_EVENT_LOOP_DELAY_MS: '0',
    },
  },
});
