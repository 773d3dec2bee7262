import type { Page } from '@playwright/test';
import { expect, test } from '../support/fixtures';

/** How many products of a category the seeded catalogue holds, asked of the API itself. */
async function countProducts(page: Page, filterType: string): Promise<number> {
  const response = await page.request.get(`/api/products?filterType=${filterType}&limit=48`);
  expect(response.ok()).toBe(true);
  const body = (await response.json()) as { data: unknown[]; isLastPage: boolean };
  expect(body.isLastPage, 'the seed fits in one page of 48').toBe(true);
  return body.data.length;
}

const productCards = (page: Page) =>
  page
    .getByRole('main')
    .getByRole('listitem')
    .filter({ has: page.getByRole('button', { name: 'Add to cart' }) });

test.describe('a shopper from the home page to a filled cart', () => {
  test.use({ role: 'shopper' });

  test('home tile to the filtered list, Load More to the last page, add a card and change the line with + - X', async ({ page }) => {
    const sailingBoats = await countProducts(page, 'sailing-boats');
    expect(sailingBoats).toBeGreaterThan(6);
    await page.goto('/');

    await page.getByRole('link', { name: 'Sailing boats' }).click();

    await expect(page).toHaveURL(/\/search\/sailing-boats$/);
    await expect(page.getByRole('heading', { name: 'Browse products' })).toBeVisible();
    await expect(productCards(page)).toHaveCount(6);
    const loadMore = page.getByRole('link', { name: 'Load More' });
    while ((await productCards(page).count()) < sailingBoats) {
      const shown = await productCards(page).count();
      await loadMore.click();
      await expect(productCards(page)).toHaveCount(Math.min(shown + 6, sailingBoats));
    }
    await expect(loadMore).toBeHidden();

    const firstCard = productCards(page).first();
    const name = (await firstCard.getByRole('img').getAttribute('alt'))!;
    await firstCard.getByRole('button', { name: 'Add to cart' }).click();

    await expect(page).toHaveURL(/\/cart$/);
    await expect(page.getByRole('heading', { name: 'Checkout' })).toBeVisible();
    const line = page.getByRole('row').filter({ has: page.getByRole('cell', { name, exact: true }) });
    await expect(line).toBeVisible();
    const header = page.getByRole('navigation', { name: 'Main' });
    await expect(header.getByRole('link', { name: 'your cart (1)' })).toBeVisible();

    await page.getByRole('button', { name: `Increase quantity of ${name}` }).click();
    await expect(header.getByRole('link', { name: 'your cart (2)' })).toBeVisible();
    await page.getByRole('button', { name: `Decrease quantity of ${name}` }).click();
    await expect(header.getByRole('link', { name: 'your cart (1)' })).toBeVisible();
    await page.getByRole('button', { name: `Remove ${name}` }).click();

    await expect(page.getByText('You cart is empty')).toBeVisible();
    await expect(header.getByRole('link', { name: 'your cart (0)' })).toBeVisible();
  });

  test('search kept in the URL across a reload, product page, add from it, cart kept across a reload and in a second tab', async ({
    page,
  }) => {
    await page.goto('/search');
    await page.getByLabel('Search boats').fill('Catamaran');
    await page.getByLabel('Search boats').press('Enter');

    await expect(page).toHaveURL(/\/search\?q=Catamaran$/);
    await expect(page.getByRole('img', { name: 'Lisandra 42 Catamaran' })).toBeVisible();
    await page.reload();
    await expect(page.getByLabel('Search boats')).toHaveValue('Catamaran');
    await expect(page.getByRole('img', { name: 'Lisandra 42 Catamaran' })).toBeVisible();

    await page.getByRole('link', { name: 'Lisandra 42 Catamaran' }).click();
    await expect(page).toHaveURL(/\/product\/[0-9a-f-]{36}$/);
    await expect(page.getByRole('heading', { name: 'Lisandra 42 Catamaran' })).toBeVisible();
    await expect(page.getByText(/€$/).first()).toBeVisible();
    await page.getByRole('button', { name: 'Add to cart' }).click();

    await expect(page).toHaveURL(/\/cart$/);
    const line = page.getByRole('row').filter({ hasText: 'Lisandra 42 Catamaran' });
    await expect(line).toBeVisible();
    await page.reload();
    await expect(line).toBeVisible();

    const secondTab = await page.context().newPage();
    await secondTab.goto('/cart');
    await expect(secondTab.getByRole('row').filter({ hasText: 'Lisandra 42 Catamaran' })).toBeVisible();
    await secondTab.getByRole('button', { name: 'Remove Lisandra 42 Catamaran' }).click();
    await expect(page.getByText('You cart is empty')).toBeVisible();
  });
});

test('a search that finds nothing and an unknown product say so', async ({ page }) => {
  await page.goto('/search?q=zzqxv');
  await expect(page.getByText('No search results.')).toBeVisible();

  await page.goto('/product/00000000-0000-4000-8000-000000000000');
  await expect(page.getByRole('heading', { name: 'Product not found' })).toBeVisible();
});

test('at 375 px the menu collapses and the tiles and cards still work', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await page.goto('/');
  const menu = page.getByRole('button', { name: 'Menu' });
  await expect(menu).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Search' })).toBeHidden();
  await menu.click();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Search' }).click();

  await expect(page.getByRole('heading', { name: 'Browse products' })).toBeVisible();
  await expect(productCards(page)).toHaveCount(6);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, 'no sideways scrolling at 375 px').toBeLessThanOrEqual(0);
});
