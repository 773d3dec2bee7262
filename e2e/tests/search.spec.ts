import type { Page } from '@playwright/test';
import { expect, test } from '../support/fixtures';

// The faceted search: yachts of 15–25 m built from 2018, chosen from the address and by clicking;
// the result count, the facet counts and the list agree; the head follows the choices.

/** The boats listed (each card has the boat's picture), every page of them loaded. */
async function listedBoats(page: Page): Promise<string[]> {
  const cards = page
    .getByRole('main')
    .getByRole('listitem')
    .filter({ has: page.getByRole('img') });
  const loadMore = page.getByRole('link', { name: 'Load More' });
  while (await loadMore.isVisible()) {
    const shown = await cards.count();
    await loadMore.click();
    await expect(cards).not.toHaveCount(shown);
  }
  return cards.getByRole('img').evaluateAll((images) => images.map((image) => image.getAttribute('alt') ?? ''));
}

/** The number of matches the page announces ("3 boats"). */
async function resultCount(page: Page): Promise<number> {
  const status = page.getByRole('status').filter({ hasText: /^\d+ boats?$/ });
  await expect(status).toBeVisible();
  return Number((await status.textContent())!.split(' ')[0]);
}

/** What the API lists for the same choices, every page: the truth the page must show. */
async function apiNames(page: Page, query: string): Promise<string[]> {
  const response = await page.request.get(`/api/products/search?${query}&limit=48`);
  expect(response.ok()).toBe(true);
  const body = (await response.json()) as { data: { name: string }[]; isLastPage: boolean; total: number };
  expect(body.isLastPage).toBe(true);
  expect(body.total).toBe(body.data.length);
  return body.data.map((boat) => boat.name);
}

const robots = (page: Page) => page.locator('head meta[name="robots"]');
const canonical = (page: Page) => page.locator('head link[rel="canonical"]');

test.describe('a shopper narrowing the yachts by length and year', () => {
  test('from the address: the count matches the list, and the page is not indexed', async ({ page }) => {
    const expected = await apiNames(page, 'category=yachts&lengthMin=15&lengthMax=25&yearMin=2018');
    expect(expected.length).toBeGreaterThan(0);

    await page.goto('/search/yachts?lengthMin=15&lengthMax=25&yearMin=2018');

    await expect(page.getByRole('heading', { name: 'Browse products' })).toBeVisible();
    expect(await resultCount(page)).toBe(expected.length);
    expect((await listedBoats(page)).sort()).toEqual([...expected].sort());
    // The category counts ignore the category choice: the yachts' count is this list's.
    await expect(
      page.getByRole('navigation', { name: 'Category counts' }).getByRole('link', { name: `Yachts (${expected.length})` }),
    ).toBeVisible();
    await expect(robots(page)).toHaveAttribute('content', 'noindex, follow');
    await expect(canonical(page)).toHaveCount(0);
  });

  test('by clicking: each choice lands in the address, the counts match the list, and Back undoes a choice', async ({ page }) => {
    await page.goto('/search');
    await expect(robots(page)).toHaveCount(0);

    await page
      .getByRole('navigation', { name: 'Category counts' })
      .getByRole('link', { name: /^Yachts \(\d+\)$/ })
      .click();
    await expect(page).toHaveURL(/\/search\/yachts$/);
    const yachts = await resultCount(page);
    await expect(canonical(page)).toHaveAttribute('href', /\/search\/yachts$/);

    const length = page.getByRole('group', { name: 'Length overall' });
    await length.getByRole('spinbutton', { name: 'From (m)' }).fill('15');
    await length.getByRole('spinbutton', { name: 'From (m)' }).press('Enter');
    await expect(page).toHaveURL(/lengthMin=15/);
    await length.getByRole('spinbutton', { name: 'To (m)' }).fill('25');
    await length.getByRole('spinbutton', { name: 'To (m)' }).press('Enter');
    await expect(page).toHaveURL(/lengthMax=25/);
    const year = page.getByRole('group', { name: 'Year built' });
    await year.getByRole('spinbutton', { name: 'From (year)' }).fill('2018');
    await year.getByRole('spinbutton', { name: 'From (year)' }).press('Enter');
    await expect(page).toHaveURL(/\/search\/yachts\?lengthMin=15&lengthMax=25&yearMin=2018$/);

    const expected = await apiNames(page, 'category=yachts&lengthMin=15&lengthMax=25&yearMin=2018');
    await expect(page.getByRole('status').filter({ hasText: /^\d+ boats?$/ })).toHaveText(
      `${expected.length} ${expected.length === 1 ? 'boat' : 'boats'}`,
    );
    expect((await listedBoats(page)).sort()).toEqual([...expected].sort());
    // Each builder's count is what choosing it lists.
    const builders = page.getByRole('group', { name: 'Builder' }).getByRole('checkbox');
    const labels = await page.getByRole('group', { name: 'Builder' }).locator('label').allTextContents();
    const counted = labels.map((label) => /^(.*) \((\d+)\)$/.exec(label.trim())!).filter(Boolean);
    expect(counted.reduce((sum, match) => sum + Number(match[2]), 0)).toBe(expected.length);
    await expect(robots(page)).toHaveAttribute('content', 'noindex, follow');
    await expect(canonical(page)).toHaveCount(0);

    // "VAT paid": its count is what ticking it lists.
    const vat = page.getByRole('group', { name: 'VAT' }).getByRole('checkbox', { name: /^VAT paid \(\d+\)$/ });
    const vatCount = Number(/\((\d+)\)/.exec((await page.getByRole('group', { name: 'VAT' }).textContent())!)![1]);
    // A click, not check(): before hydration the tick sends the form and the page is loaded anew.
    await vat.click();
    await expect(page).toHaveURL(/vatPaid=1/);
    await expect(vat).toBeChecked();
    expect(await resultCount(page)).toBe(vatCount);
    expect(await listedBoats(page)).toHaveLength(vatCount);
    expect(await builders.count()).toBeGreaterThan(0);

    await page.goBack();
    await expect(page).toHaveURL(/yearMin=2018$/);
    expect(await resultCount(page)).toBe(expected.length);
    await page.goBack();
    await page.goBack();
    await page.goBack();
    await expect(page).toHaveURL(/\/search\/yachts$/);
    expect(await resultCount(page)).toBe(yachts);
    await expect(robots(page)).toHaveCount(0);
    await expect(canonical(page)).toHaveAttribute('href', /\/search\/yachts$/);
  });
});

test.describe('the listing on a desktop screen and on a phone', () => {
  test('on a desktop screen the first boats stand beside the filters, in the first screen; on a phone the filters come first, with a way past them', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/search');
    const filters = page.getByRole('complementary', { name: 'Filters' });
    const firstCard = page.locator('.catalog-card').first();
    await expect(firstCard).toBeVisible();
    const beside = { filters: (await filters.boundingBox())!, card: (await firstCard.boundingBox())! };
    expect(beside.card.x).toBeGreaterThanOrEqual(beside.filters.x + beside.filters.width);
    expect(beside.card.y).toBeLessThan(800);
    // The long list of builders scrolls in its own box rather than pushing the page down.
    const builders = page.getByRole('group', { name: 'Builder' }).locator('.catalog-facet__options');
    expect(await builders.evaluate((box) => box.scrollHeight > box.clientHeight)).toBe(true);

    await page.setViewportSize({ width: 390, height: 844 });
    const above = { filters: (await filters.boundingBox())!, card: (await firstCard.boundingBox())! };
    expect(above.card.y).toBeGreaterThan(above.filters.y);
    expect(above.card.x).toBeLessThan(above.filters.x + above.filters.width);
    // There the long filters have a way past them, which the desktop screen does not need.
    const skip = page.getByRole('link', { name: 'Skip to the boats' });
    await skip.click();
    await expect(firstCard).toBeInViewport();
    await page.setViewportSize({ width: 1280, height: 800 });
    await expect(skip).toBeHidden();
  });
});
