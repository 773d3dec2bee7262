import { expect, expectPage, homeToProduct, productCards, test } from './fixture';

// mf-catalog's main journeys: home, search, product page.

test('catalog: home page, a category, a product page', async ({ page }) => {
  await homeToProduct(page);
  await expect(page.getByText(/€$/).first()).toBeVisible();
});

test('catalog: search for a word', async ({ page }) => {
  await page.goto('/search');
  await expectPage(page, 'Browse products');
  await page.getByLabel('Search boats').fill('boat');
  await page.getByLabel('Search boats').press('Enter');
  await expect(page).toHaveURL(/\/search\?q=boat$/);
  await expect(
    productCards(page)
      .or(page.getByText(/no (boats|products|results)/i))
      .first(),
  ).toBeVisible();
});
