import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, request, type Page } from '@playwright/test';
import { DEMO_ACCOUNTS, type DemoRole } from '../helpers/session';
import { shopUrl } from './stack';
import { shellStarted } from './started';

export type Role = 'visitor' | DemoRole;

interface TestFixtures {
  /** Who the browser context is: a visitor, or a demo account signed in once per worker. */
  role: Role;
  /**
   * Whether `page.goto` returns only once the shell has started on the page (default true):
   * journeys that hold the scripts back to look at the server's HTML alone turn it off.
   */
  waitsForShell: boolean;
  startedAfterGoto: void;
  /** Every URL the page requested, in order. */
  requestedUrls: string[];
  /**
   * What the browser refused under the Content-Security-Policy during the test, in any page of
   * the context (popups too). Checked after every test: a journey with a violation fails. A test
   * that provokes one on purpose empties the array.
   */
  cspViolations: string[];
}

interface WorkerFixtures {
  signedInState: (role: DemoRole) => Promise<string>;
}

// axe-core, the accessibility checker some journeys run inside the page, copies the page's
// stylesheets into <style> elements of its own to read them: refusals of *its* inline styles say
// nothing about the shop. Refusals seen while it runs (and until the page has drained its task
// queue afterwards) are set aside, and only those of inline styles.
let axeRuns = 0;
const analyze = AxeBuilder.prototype.analyze;
AxeBuilder.prototype.analyze = async function analyzeOutsideTheCspCheck(this: AxeBuilder) {
  axeRuns += 1;
  try {
    return await analyze.call(this);
  } finally {
    const page = (this as unknown as { page?: import('@playwright/test').Page }).page;
    await page?.evaluate(() => new Promise((resolve) => setTimeout(resolve, 0))).catch(() => undefined);
    axeRuns -= 1;
  }
};
const isAxeStyle = (text: string) => axeRuns > 0 && /inline style|style-src-elem refused inline/.test(text);

export const test = base.extend<TestFixtures, WorkerFixtures>({
  role: ['visitor', { option: true }],
  waitsForShell: [true, { option: true }],

  // A server-rendered page loads its scripts after its load event (docs/adr/0072): the next
  // step of a journey after a navigation is mostly a click that only the started page answers,
  // so page.goto returns once the shell has started there, as a shopper waits for the page to
  // react. Pages opened in other contexts wait with shellStarted (support/started.ts).
  startedAfterGoto: [
    async ({ context, javaScriptEnabled, waitsForShell }, use) => {
      if (javaScriptEnabled && waitsForShell) {
        const wrap = (page: Page) => {
          const goto = page.goto.bind(page);
          page.goto = async (url, options) => {
            const response = await goto(url, options);
            // The shop's pages only: a remote served alone has a #root but no shell to start.
            const shopPage = response !== null && new URL(response.url()).origin === new URL(shopUrl()).origin;
            if (shopPage && response.headers()['content-type']?.startsWith('text/html') && (await page.locator('#root').count()) > 0) {
              await shellStarted(page);
            }
            return response;
          };
        };
        context.pages().forEach(wrap);
        context.on('page', wrap);
      }
      await use();
    },
    { auto: true },
  ],

  // One stored login per role and worker (the API limits sign-ins per address and minute).
  // A journey that logs out revokes that session: give it its own sign-in instead.
  signedInState: [
    async ({}, use, workerInfo) => {
      const states = new Map<DemoRole, Promise<string>>();
      const folder = join(workerInfo.project.outputDir, `.auth-${workerInfo.workerIndex}`);
      mkdirSync(folder, { recursive: true });
      await use((role) => {
        let state = states.get(role);
        if (!state) {
          state = signIn(role, join(folder, `${role}.json`));
          states.set(role, state);
        }
        return state;
      });
    },
    { scope: 'worker' },
  ],

  storageState: async ({ role, signedInState }, use) => {
    await use(role === 'visitor' ? undefined : await signedInState(role));
  },

  cspViolations: [
    async ({ context }, use) => {
      const violations: string[] = [];
      // Chromium reports each refusal on the console ("Refused to … because it violates the
      // following Content Security Policy directive …"); the DOM event also catches the ones
      // reported without a console line.
      context.on('console', (message) => {
        if (message.text().includes('Content Security Policy') && !isAxeStyle(message.text())) {
          violations.push(`${message.page()?.url() ?? ''}: ${message.text()}`);
        }
      });
      await context.exposeBinding('__reportCspViolation', ({ page }, text: string) => {
        if (!isAxeStyle(text)) violations.push(`${page?.url() ?? ''}: ${text}`);
      });
      await context.addInitScript(() => {
        document.addEventListener('securitypolicyviolation', (event) => {
          const report = (window as unknown as { __reportCspViolation?: (text: string) => void }).__reportCspViolation;
          report?.(`securitypolicyviolation: ${event.effectiveDirective} refused ${event.blockedURI || 'inline'}`);
        });
      });
      await use(violations);
      expect(violations, 'Content-Security-Policy violations reported by the browser').toEqual([]);
    },
    { auto: true },
  ],

  requestedUrls: async ({ page }, use) => {
    const urls: string[] = [];
    page.on('request', (request) => urls.push(request.url()));
    await use(urls);
  },
});

async function signIn(role: DemoRole, path: string): Promise<string> {
  // Explicitly without cookies: inside a test, request.newContext() inherits the test's
  // storageState, so signing the admin in while a shopper test runs would send the shopper's
  // session cookie along, and the API replaces (revokes) the session a login arrives with.
  const context = await request.newContext({ baseURL: shopUrl(), storageState: { cookies: [], origins: [] } });
  try {
    // The session call sets the CSRF cookie that the login must echo.
    expect((await context.get('/api/auth/session')).ok()).toBe(true);
    const csrf = (await context.storageState()).cookies.find((cookie) => cookie.name === 'csrf')?.value;
    expect(csrf, 'the API sets a csrf cookie on GET /api/auth/session').toBeTruthy();
    const { email, password } = DEMO_ACCOUNTS[role];
    const response = await context.post('/api/auth/login', { data: { email, password }, headers: { 'x-csrf-token': csrf! } });
    expect(response.status(), await response.text()).toBe(200);
    await context.storageState({ path });
    return path;
  } finally {
    await context.dispose();
  }
}

export { expect };
