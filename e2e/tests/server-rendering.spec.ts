import type { ConsoleMessage, Page } from '@playwright/test';
import { expect, test } from '../support/fixtures';

// The catalogue's pages come rendered by the shell's server (its frame and the remote page) and
// the browser hydrates them: without JavaScript they show their content; with it, the page the
// server painted becomes interactive without a mismatch and without asking the API again.

interface ApiProduct {
  id: string;
  name: string;
  priceCents: number;
  thumbnailUrl: string;
}

async function firstProduct(page: Page): Promise<ApiProduct> {
  const response = await page.request.get('/api/products?limit=1');
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { data: ApiProduct[] }).data[0]!;
}

const euros = (cents: number) => `${(cents / 100).toLocaleString('de-DE', { minimumFractionDigits: 2, maximumFractionDigits: 2 })} €`;

/** Console messages that report a hydration mismatch (React's wording, and the shell's own). */
function mismatchWatch(page: Page): string[] {
  const mismatches: string[] = [];
  page.on('console', (message: ConsoleMessage) => {
    if (/hydrat|did not match|didn't match/i.test(message.text())) mismatches.push(`${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => {
    if (/hydrat|did not match|didn't match/i.test(error.message)) mismatches.push(`pageerror: ${error.message}`);
  });
  return mismatches;
}

/** The shell writes how it started on #root: `hydrated` (the server's HTML kept) or `rendered` (anew). */
const hydrated = (page: Page) => expect(page.locator('#root')).toHaveAttribute('data-started', 'hydrated', { timeout: 15_000 });

/**
 * The shell's server renders a page only with its data read from the API in time (300 ms): the
 * journey asks once first, so the reads are cached and the page it then loads is rendered.
 */
async function warm(page: Page, path: string): Promise<void> {
  expect((await page.request.get(path, { headers: { accept: 'text/html' } })).ok()).toBe(true);
}

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('a product page shows its name, price, picture, specifications and description', async ({ page }) => {
    const product = await firstProduct(page);
    await warm(page, `/product/${product.id}`);
    await page.goto(`/product/${product.id}`);

    await expect(page.getByRole('heading', { level: 1, name: product.name })).toBeVisible();
    await expect(page.getByText(euros(product.priceCents), { exact: true }).first()).toBeVisible();
    const picture = page.getByRole('img', { name: product.name });
    await expect(picture).toBeVisible();
    await expect(picture).toHaveAttribute('src', product.thumbnailUrl);
    // Loaded, not a broken image.
    expect(await picture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    await expect(page.getByRole('region', { name: 'Specifications' })).toBeVisible();
    await expect(page.getByRole('rowheader', { name: 'Length overall' })).toBeVisible();
    await expect(page.locator('.catalog-description')).not.toBeEmpty();
    // The shell's frame: header and footer.
    await expect(page.getByRole('link', { name: 'Boat shop home' })).toBeVisible();
    await expect(page.getByRole('contentinfo')).toContainText('Contact us');
  });

  test('the listing shows its cards, and Load More is a link to the next page', async ({ page }) => {
    await warm(page, '/search');
    await page.goto('/search');
    const cards = page.locator('.catalog-card');
    await expect(cards).toHaveCount(6);
    await expect(cards.first().getByRole('img')).toBeVisible();
    await expect(cards.first().getByRole('link')).toHaveAttribute('href', /^\/product\//);
    const next = page.getByRole('link', { name: 'Load More' });
    await expect(next).toHaveAttribute('href', /cursor=/);
    await expect(next).toHaveAttribute('rel', 'next');
  });
});

test.describe('with JavaScript', () => {
  test('the server’s product page is hydrated without a mismatch or a second request, then Add to cart works', async ({
    page,
    requestedUrls,
  }) => {
    const product = await firstProduct(page);
    const mismatches = mismatchWatch(page);
    await warm(page, `/product/${product.id}`);
    await page.goto(`/product/${product.id}`);

    await hydrated(page);
    await expect(page.getByRole('heading', { level: 1, name: product.name })).toBeVisible();
    // The product came with the page: the catalogue did not ask the API for it again.
    expect(requestedUrls.filter((url) => new URL(url).pathname === `/api/products/${product.id}`)).toEqual([]);

    await page.getByRole('button', { name: 'Add to cart' }).click();
    await expect(page).toHaveURL(/\/cart$/);
    await expect(page.getByRole('row').filter({ has: page.getByRole('cell', { name: product.name, exact: true }) })).toBeVisible();
    expect(mismatches).toEqual([]);
  });

  test.describe('with the catalogue held back', () => {
    // page.goto must not wait for the shell: it cannot start until the entry is let through.
    test.use({ waitsForShell: false });
    test('the server paints the page before the catalogue’s JavaScript has arrived', async ({ page }) => {
      const product = await firstProduct(page);
      // Hold back the catalogue's remote entry: what shows meanwhile is the server's HTML alone.
      let release: () => void = () => undefined;
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route('**/remoteEntry.js', async (route) => {
        await held;
        await route.continue();
      });
      await warm(page, `/product/${product.id}`);
      await page.goto(`/product/${product.id}`, { waitUntil: 'commit' });
      await expect(page.getByRole('heading', { level: 1, name: product.name })).toBeVisible();
      await expect(page.getByRole('img', { name: product.name })).toBeVisible();
      // Not interactive yet, and honest about it.
      await expect(page.getByRole('button', { name: 'Add to cart' })).toBeDisabled();
      expect(await page.locator('#root').getAttribute('data-started')).toBeNull();
      release();
      await hydrated(page);
      await expect(page.getByRole('button', { name: 'Add to cart' })).toBeEnabled();
    });

    test('a picture that never finishes does not hold the scripts back once the visitor reaches for the page', async ({ page }) => {
      const product = await firstProduct(page);
      // The page's load event never comes (its picture hangs), and its timers stand still: the
      // scripts' only way to start is the visitor's key press.
      await page.route('**/api/images/**', () => new Promise<void>(() => undefined));
      await page.clock.install();
      await page.clock.pauseAt(Date.now() + 1_000);
      const scripts: string[] = [];
      page.on('request', (request) => {
        if (request.resourceType() === 'script' && !new URL(request.url()).pathname.startsWith('/after-paint.'))
          scripts.push(request.url());
      });
      await warm(page, `/product/${product.id}`);
      await page.goto(`/product/${product.id}`, { waitUntil: 'commit' });
      await expect(page.getByRole('heading', { level: 1, name: product.name })).toBeVisible();
      await expect(page.locator('script[data-run]')).toHaveCount(1);
      // The after-paint script has run and waits; nothing of the page's own has been asked for.
      await page.waitForTimeout(500);
      expect(scripts).toEqual([]);

      const asked = page.waitForRequest((request) => /\/main\.[0-9a-f]+\.js$/.test(new URL(request.url()).pathname));
      await page.keyboard.press('Tab');
      await asked;
      await page.clock.resume();
      await hydrated(page);
      await expect(page.getByRole('button', { name: 'Add to cart' })).toBeEnabled();
    });
  });

  test('the page’s scripts are asked for only after its first paint', async ({ page }) => {
    const product = await firstProduct(page);
    await warm(page, `/product/${product.id}`);
    await page.goto(`/product/${product.id}`);
    await hydrated(page);
    const timing = await page.evaluate(() => {
      const paint = performance.getEntriesByName('first-contentful-paint')[0];
      const scripts = performance.getEntriesByType('resource').filter((entry) => {
        const path = new URL(entry.name).pathname;
        return path.endsWith('.js') && !path.startsWith('/after-paint.');
      });
      return { paint: paint?.startTime ?? null, first: Math.min(...scripts.map((entry) => entry.startTime)), count: scripts.length };
    });
    expect(timing.paint).not.toBeNull();
    expect(timing.count).toBeGreaterThan(0);
    expect(timing.first).toBeGreaterThanOrEqual(timing.paint!);
  });

  test('a listing is hydrated with its first page, and Load More appends the next after hydration', async ({ page, requestedUrls }) => {
    const mismatches = mismatchWatch(page);
    await warm(page, '/search');
    await page.goto('/search');
    await hydrated(page);
    const cards = page.locator('.catalog-card');
    await expect(cards).toHaveCount(6);
    // Neither the list nor its facet counts were asked again.
    expect(requestedUrls.filter((url) => /^\/api\/products(\/search)?$/.test(new URL(url).pathname))).toEqual([]);
    await expect(page.getByRole('status').filter({ hasText: /\d+ boats/ })).toBeVisible();

    await page.getByRole('link', { name: 'Load More' }).click();
    await expect(cards).toHaveCount(12);
    // Appended on this page, not a navigation to the next one.
    await expect(page).toHaveURL(/\/search$/);
    expect(mismatches).toEqual([]);
  });

  test('the home page is hydrated without a mismatch', async ({ page }) => {
    const mismatches = mismatchWatch(page);
    await warm(page, '/');
    await page.goto('/');
    await hydrated(page);
    await expect(page.getByRole('heading', { level: 1, name: 'Sailing boats and yachts' })).toBeVisible();
    await page.getByRole('link', { name: 'Yachts' }).first().click();
    await expect(page).toHaveURL(/\/search\/yachts$/);
    await expect(page.locator('.catalog-card').first()).toBeVisible();
    expect(mismatches).toEqual([]);
  });

  test('the home page, a listing and a product page hydrate without asking Intl for anything', async ({ page }) => {
    // A page's first use of Intl loads the browser's locale data in one long task (ADR 0086).
    await page.addInitScript(() => {
      const used: string[] = [];
      Object.assign(window, { intlUsed: used });
      const watch = (owner: object, name: string, label: string) => {
        const original = Reflect.get(owner, name) as (...args: unknown[]) => unknown;
        const note = (args: unknown[]) => used.push(`${label}(${JSON.stringify(args)})`);
        Reflect.set(
          owner,
          name,
          new Proxy(original, {
            construct: (target, args) => (note(args), Reflect.construct(target, args) as object),
            apply: (target, self, args) => (note(args), Reflect.apply(target, self, args)),
          }),
        );
      };
      for (const name of [
        'NumberFormat',
        'DateTimeFormat',
        'DisplayNames',
        'PluralRules',
        'Collator',
        'ListFormat',
        'RelativeTimeFormat',
      ]) {
        watch(Intl, name, `Intl.${name}`);
      }
      watch(Number.prototype, 'toLocaleString', 'Number#toLocaleString');
      for (const name of ['toLocaleString', 'toLocaleDateString', 'toLocaleTimeString']) watch(Date.prototype, name, `Date#${name}`);
      watch(String.prototype, 'localeCompare', 'String#localeCompare');
    });
    const product = await firstProduct(page);
    for (const path of ['/', '/search', `/product/${product.id}`]) {
      await warm(page, path);
      await page.goto(path);
      await hydrated(page);
      expect(await page.evaluate(() => (window as unknown as { intlUsed: string[] }).intlUsed), path).toEqual([]);
    }
  });
});

test.describe('a signed-in shopper', () => {
  test.use({ role: 'shopper' });

  test('sees the hydrated page take their sign-in state and cart without a mismatch', async ({ page }) => {
    const product = await firstProduct(page);
    const mismatches = mismatchWatch(page);
    await warm(page, `/product/${product.id}`);
    await page.goto(`/product/${product.id}`);
    await hydrated(page);
    const header = page.getByRole('navigation', { name: 'Main' });
    await expect(header.getByRole('link', { name: 'my account' })).toBeVisible();
    await expect(header.getByRole('link', { name: 'log in' })).toHaveCount(0);
    expect(mismatches).toEqual([]);
  });
});
