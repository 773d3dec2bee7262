import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from '../support/fixtures';

/** Serious and critical axe findings on the whole page, named so a failure says what to fix. */
async function seriousViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations
    .filter(({ impact }) => impact === 'serious' || impact === 'critical')
    .map(({ id, help, nodes }) => `${id}: ${help} (${nodes.map((node) => node.target.join(' ')).join(', ')})`);
}

test.describe('shopping pages for assistive technology', () => {
  test.use({ role: 'shopper' });

  test('home, search, product and cart have no serious or critical axe violation', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('link', { name: 'Yachts' })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);

    await page.goto('/search/yachts');
    // The last of the first page, not the first: journeys running in parallel add yachts (newest
    // first) and delete them again, and a deleted product would leave the cart at once. And one
    // that can still be bought: deposits.spec reserves and sells a seeded yacht, stock.spec one of its own.
    await expect(page.getByRole('main').getByRole('img').first()).toBeVisible();
    const buyable = page
      .getByRole('main')
      .getByRole('listitem')
      .filter({ has: page.getByRole('button', { name: 'Add to cart', disabled: false }) });
    const firstPicture = buyable.last().getByRole('img');
    await expect(firstPicture).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);

    const name = (await firstPicture.getAttribute('alt'))!;
    await page.getByRole('link', { name, exact: true }).click();
    await expect(page.getByRole('heading', { name })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Add to cart' }).click();
    await expect(page.getByRole('table')).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
  });
});
