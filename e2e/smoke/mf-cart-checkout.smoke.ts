import { expect, expectPage, homeToProduct, test } from './fixture';

// mf-cart-checkout's main journey: a product into the cart and out again. A visitor's cart lives
// in their browser (localStorage), so the live shop's data is untouched.

test('cart: home → product → add to cart → the line in the cart → remove it', async ({ page }) => {
  await page.goto('/cart');
  await expectPage(page, 'Checkout');
  await expect(page.getByText('You cart is empty')).toBeVisible();

  const name = await homeToProduct(page);
  await page.getByRole('button', { name: 'Add to cart' }).click();
  await expect(page).toHaveURL(/\/cart$/);
  await expectPage(page, 'Checkout');
  await expect(page.getByRole('row').filter({ has: page.getByRole('cell', { name, exact: true }) })).toBeVisible();
  await page.getByRole('button', { name: `Remove ${name}` }).click();
  await expect(page.getByText('You cart is empty')).toBeVisible();
});
