import type { Page } from '@playwright/test';
import { expect, test } from '../support/fixtures';
import { stackPort } from '../support/stack';

// The admin issue's promises: an admin manages the catalogue in mf_admin and the shop follows
// at once; a hostile description never runs in the shop; nobody else ever loads mf_admin.

function fromMfAdmin(urls: string[]) {
  return urls.filter((url) => new URL(url).port === String(stackPort('mf-admin')));
}

const tiptapChunks = (urls: string[]) => urls.filter((url) => url.includes('tiptap'));

async function csrfHeaders(page: Page) {
  // The shell asks for the session once it has started, after `load`: wait for that answer's cookie.
  const csrfCookie = async () => (await page.context().cookies()).find((cookie) => cookie.name === 'csrf')?.value;
  await expect.poll(csrfCookie, { message: 'the shell asked for the session, which sets the csrf cookie' }).toBeTruthy();
  return { 'x-csrf-token': (await csrfCookie())! };
}

test.describe('an administrator', () => {
  test.use({ role: 'admin' });

  test('adds a product with a formatted description, finds it in the shop, changes its price and deletes it', async ({
    page,
    requestedUrls,
  }) => {
    const name = `Journey Ketch ${Date.now()}`;
    await page.goto('/admin');
    await expect(page.getByRole('heading', { level: 1, name: 'Manage products' })).toBeVisible();
    await expect(page.getByRole('row').nth(1)).toBeVisible();
    // The rich-text editor is the heaviest part of mf_admin: not even an admin loads it for the list.
    expect(tiptapChunks(requestedUrls)).toEqual([]);

    await page.getByRole('button', { name: 'Add new product' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add new product' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByLabel('Category', { exact: true })).toHaveValue('sailing-boats');
    await expect(dialog.getByLabel('Price')).toHaveValue('0');
    await dialog.getByLabel('Category', { exact: true }).selectOption({ label: 'Yachts' });
    await dialog.getByLabel('Name').fill(name);
    await dialog.getByLabel('Image URL').fill('/api/images/belmare-64-sport.svg');
    await dialog.getByLabel('Price').fill('123456.78');

    const description = dialog.getByRole('textbox', { name: 'Description' });
    await description.click();
    await page.keyboard.type('Built for ');
    await dialog.getByRole('button', { name: 'Bold' }).click();
    await page.keyboard.type('long passages');
    await dialog.getByRole('button', { name: 'Bold' }).click();
    await page.keyboard.type('.');
    await page.keyboard.press('Enter');
    await dialog.getByRole('button', { name: 'Bullet list' }).click();
    await expect(dialog.getByRole('button', { name: 'Bullet list' })).toHaveAttribute('aria-pressed', 'true');
    await page.keyboard.type('Watermaker');
    await page.keyboard.press('Enter');
    await page.keyboard.type('Twin helm stations');
    await dialog.getByRole('button', { name: 'Add product' }).click();

    await expect(dialog).toBeHidden();
    const row = page.getByRole('row', { name: new RegExp(name) });
    await expect(page.getByRole('row').nth(1)).toContainText(name);
    await expect(row).toContainText('Yachts');
    await expect(row).toContainText('123.456,78 €');
    const tiptap = tiptapChunks(requestedUrls);
    expect(tiptap.length, 'the editor was loaded with the form').toBeGreaterThan(0);
    expect(fromMfAdmin(tiptap), 'the editor comes from mf_admin alone').toEqual(tiptap);

    // The next opening starts from an empty form; Escape closes it.
    await page.getByRole('button', { name: 'Add new product' }).click();
    await expect(dialog.getByLabel('Name')).toHaveValue('');
    await expect(dialog.getByLabel('Image URL')).toHaveValue('');
    await expect(dialog.getByLabel('Category', { exact: true })).toHaveValue('sailing-boats');
    await expect(dialog.getByLabel('Price')).toHaveValue('0');
    await expect(dialog.getByRole('textbox', { name: 'Description' })).toHaveText('');
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();

    const productPath = await row.getByRole('link', { name }).getAttribute('href');
    expect(productPath).toMatch(/^\/product\/[0-9a-f-]{36}$/);

    // The shop finds it by name, and its page shows the formatting made with the toolbar.
    await page.goto(`/search?q=${encodeURIComponent(name)}`);
    await expect(
      page
        .getByRole('main')
        .getByRole('link', { name: new RegExp(name) })
        .first(),
    ).toHaveAttribute('href', productPath!);
    await page.goto(productPath!);
    const main = page.getByRole('main');
    await expect(main.getByRole('heading', { level: 1, name })).toBeVisible();
    await expect(main.getByText('123.456,78 €')).toBeVisible();
    await expect(main.locator('strong', { hasText: 'long passages' })).toBeVisible();
    await expect(main.getByRole('listitem').filter({ hasText: 'Watermaker' })).toBeVisible();
    await expect(main.getByRole('listitem').filter({ hasText: 'Twin helm stations' })).toBeVisible();

    // A new price in the admin is the shop's price.
    await page.goto('/admin');
    await row.getByRole('button', { name: 'Edit' }).click();
    const editDialog = page.getByRole('dialog', { name: 'Edit product' });
    await expect(editDialog.getByLabel('Name')).toHaveValue(name);
    await expect(editDialog.getByLabel('Price')).toHaveValue('123456.78');
    await expect(editDialog.getByRole('textbox', { name: 'Description' }).getByText('Watermaker')).toBeVisible();
    await editDialog.getByLabel('Price').fill('99999.5');
    await editDialog.getByRole('button', { name: 'Save changes' }).click();
    await expect(editDialog).toBeHidden();
    await expect(row).toContainText('99.999,50 €');
    await page.goto(productPath!);
    await expect(page.getByRole('main').getByText('99.999,50 €')).toBeVisible();

    // Deleting asks first, naming the product, then the shop no longer has it.
    await page.goto('/admin');
    await row.getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('dialog', { name: `Delete “${name}”?` });
    await expect(confirm).toBeVisible();
    await confirm.getByRole('button', { name: 'Delete product' }).click();
    await expect(confirm).toBeHidden();
    await expect(row).toHaveCount(0);
    await expect(page.getByRole('status').filter({ hasText: `“${name}” was deleted.` })).toBeVisible();

    await page.goto(productPath!);
    await expect(page.getByRole('main').getByText('Product not found')).toBeVisible();
    await page.goto(`/search?q=${encodeURIComponent(name)}`);
    await expect(page.getByRole('main').getByText('No search results.')).toBeVisible();
  });

  test('sees the API’s validation messages in the form, which stays open', async ({ page }) => {
    await page.goto('/admin');
    await page.getByRole('button', { name: 'Add new product' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add new product' });
    await dialog.getByLabel('Name').fill('ab');
    await dialog.getByLabel('Image URL').fill('javascript:alert(1)');
    await dialog.getByRole('button', { name: 'Add product' }).click();

    const problems = dialog.getByRole('alert');
    await expect(problems.getByRole('listitem')).toHaveText([
      'Name must be 3 to 120 characters long',
      'Image URL must be a web address starting with http:// or https://',
      'Price must be more than 0,00 €',
    ]);
    await expect(dialog).toBeVisible();
  });

  test('cannot make a stored description run script in the shop', async ({ page }) => {
    await page.goto('/');
    const response = await page.request.post('/api/admin/products', {
      headers: await csrfHeaders(page),
      data: {
        name: `Hostile Sloop ${Date.now()}`,
        thumbnailUrl: '/api/images/aldren-22-daysailer.svg',
        priceCents: 1_000_000,
        category: 'sailing-boats',
        descriptionHtml:
          '<img src=x onerror="window.__xss=1; alert(1)"><script>window.__xss=1; alert(1)</script>' +
          '<a href="javascript:window.__xss=1">Specs</a><p onmouseover="window.__xss=1">Harmless text</p>',
      },
    });
    expect(response.status(), await response.text()).toBe(201);
    const { id } = (await response.json()) as { id: string };

    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await page.goto(`/product/${id}`);
    const text = page.getByRole('main').getByText('Harmless text');
    await expect(text).toBeVisible();
    await text.hover();
    await page.getByRole('main').getByText('Specs').click();
    expect(await page.evaluate(() => (window as { __xss?: unknown }).__xss)).toBeUndefined();
    expect(dialogs).toEqual([]);

    await page.request.delete(`/api/admin/products/${id}`, { headers: await csrfHeaders(page) });
  });
});

test.describe('a visitor', () => {
  test('is sent from /admin to /login without downloading anything of mf_admin', async ({ page, requestedUrls }) => {
    await page.goto('/admin');
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('heading', { level: 1, name: 'log in' })).toBeVisible();
    expect(fromMfAdmin(requestedUrls)).toEqual([]);
    expect(tiptapChunks(requestedUrls)).toEqual([]);
  });

  test('is refused by the admin API', async ({ page }) => {
    await page.goto('/');
    const response = await page.request.post('/api/admin/products', { headers: await csrfHeaders(page), data: {} });
    expect(response.status()).toBe(401);
  });
});

test.describe('a shopper', () => {
  test.use({ role: 'shopper' });

  test('is sent away from /admin without downloading anything of mf_admin, and refused by the admin API', async ({
    page,
    requestedUrls,
  }) => {
    await page.goto('/admin');
    // /admin sends a non-admin to /login, which sends a signed-in user on to the home page.
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('heading', { name: 'Manage products' })).toHaveCount(0);
    expect(fromMfAdmin(requestedUrls)).toEqual([]);
    expect(tiptapChunks(requestedUrls)).toEqual([]);

    const response = await page.request.get('/api/admin/products');
    expect(response.status()).toBe(403);
  });
});
