import type { Page } from '@playwright/test';
import { expect, test } from '../support/fixtures';

// The search page's controls are a GET form and links (progressive enhancement): without
// JavaScript, and in the moments before the page has hydrated, a choice gives the address of that
// choice, which the shell's server renders; once hydrated the page takes them over itself.

interface SearchAnswer {
  total: number;
  data: { name: string }[];
}

async function search(page: Page, query: string): Promise<SearchAnswer> {
  const response = await page.request.get(`/api/products/search?${query}`);
  expect(response.ok()).toBe(true);
  return (await response.json()) as SearchAnswer;
}

/** The shell's server renders a listing only with its data read in time: ask once first, so the reads are cached. */
async function warm(page: Page, path: string): Promise<void> {
  expect((await page.request.get(path, { headers: { accept: 'text/html' } })).ok()).toBe(true);
}

const cards = (page: Page) => page.locator('.catalog-card');

/** The count the page shows ("26 boats"). */
async function shownTotal(page: Page): Promise<number> {
  const status = page.getByRole('status').filter({ hasText: /\d+ boats?$/ });
  await expect(status).toBeVisible();
  return Number(/(\d+)/.exec((await status.textContent()) ?? '')![1]);
}

/**
 * The API's count for `query` read before the page (`before`) and now: journeys in the other
 * worker sell boats meanwhile, so the page shows one of the two.
 */
async function totalsAround(page: Page, query: string, before: number): Promise<number[]> {
  return [before, (await search(page, query)).total];
}
const hideSold = (page: Page) => page.getByRole('checkbox', { name: 'Hide sold boats' });
const sort = (page: Page) => page.getByRole('combobox', { name: 'Sort by' });

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('"Hide sold boats", the sort and a facet are sent as a form, and the server renders that list', async ({ page }) => {
    const cheapest = await search(page, 'sort=price-asc&hideSold=true&limit=1');
    await warm(page, '/search');
    await page.goto('/search');
    await hideSold(page).check();
    await sort(page).selectOption({ label: 'Price: low to high' });
    await page.getByRole('button', { name: 'Apply filters' }).click();

    await expect(page).toHaveURL(/[?&]available=1(&|$)/);
    await expect(page).toHaveURL(/[?&]sort=price-asc(&|$)/);
    await expect(hideSold(page)).toBeChecked();
    await expect(sort(page)).toHaveValue('price-asc');
    await expect(cards(page).first().getByRole('link')).toHaveText(cheapest.data[0]!.name);
    expect(await totalsAround(page, 'sort=price-asc&hideSold=true&limit=1', cheapest.total)).toContain(await shownTotal(page));

    // A builder ticked in the facet panel, sent with the rest.
    const builder = page.getByRole('group', { name: 'Builder' }).getByRole('checkbox').first();
    const builderName = ((await builder.locator('..').textContent()) ?? '').replace(/\s*\(.*$/, '');
    await builder.check();
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect(page).toHaveURL(/[?&]builder=/);
    expect(new URL(page.url()).searchParams.getAll('builder')).toEqual([builderName]);
    const query = `builder=${encodeURIComponent(builderName)}&hideSold=true&limit=1`;
    const ofBuilder = await search(page, query);
    expect(await totalsAround(page, query, ofBuilder.total)).toContain(await shownTotal(page));
  });

  test('the search text is sent with the form, and Load More leads to the next page', async ({ page }) => {
    await warm(page, '/search');
    await page.goto('/search');
    const firstPage = await cards(page).allTextContents();
    // The next page is rendered only with its data read in time: read once first, as a crawler's second visit would.
    await warm(page, (await page.getByRole('link', { name: 'Load More' }).getAttribute('href'))!);
    await page.getByRole('link', { name: 'Load More' }).click();
    await expect(page).toHaveURL(/[?&]cursor=/);
    await expect(cards(page).first()).toBeVisible();
    expect(await cards(page).allTextContents()).not.toEqual(firstPage);

    await page.goto('/search');
    await page.getByRole('searchbox', { name: 'Search boats' }).fill('yacht');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(page).toHaveURL(/[?&]q=yacht(&|$)/);
  });
});

test.describe('before hydration', () => {
  test.use({ waitsForShell: false });
  test('a click on "Hide sold boats" and a new sort are not lost: the page goes to their address', async ({ page }) => {
    const cheapest = await search(page, 'sort=price-asc&hideSold=true&limit=1');
    // Hold back the catalogue's remote entry: the page cannot hydrate, only the server's HTML is there.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/remoteEntry.js', async (route) => {
      await held;
      await route.continue();
    });
    await warm(page, '/search');
    await page.goto('/search', { waitUntil: 'commit' });
    await expect(hideSold(page)).toBeEnabled();
    expect(await page.locator('#root').getAttribute('data-started')).toBeNull();

    await hideSold(page).check();
    await expect(page).toHaveURL(/\/search\?available=1$/);
    await expect(hideSold(page)).toBeChecked();
    expect(await page.locator('#root').getAttribute('data-started')).toBeNull();

    await sort(page).selectOption({ label: 'Price: low to high' });
    await expect(page).toHaveURL(/\/search\?available=1&sort=price-asc$/);
    await expect(cards(page).first().getByRole('link')).toHaveText(cheapest.data[0]!.name);

    // Once hydrated, the page takes the controls over: unticking changes the address in place.
    release();
    await expect(page.locator('#root')).toHaveAttribute('data-started', 'hydrated', { timeout: 15_000 });
    const pageLoads: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'document') pageLoads.push(request.url());
    });
    // A click, not uncheck(): the page unticks the box once the address has changed, not within the click.
    await hideSold(page).click();
    await expect(page).toHaveURL(/\/search\?sort=price-asc$/);
    await expect(hideSold(page)).not.toBeChecked();
    // A history entry of the single-page app: no page was asked of the server.
    expect(pageLoads).toEqual([]);
  });
});
