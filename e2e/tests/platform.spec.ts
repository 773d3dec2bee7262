import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from '../support/fixtures';
import { stackPort } from '../support/stack';

// The platform's promises: the shell assembles the four remotes at runtime around one copy of
// the shared libraries and stores, and mf_admin stays out of reach of everyone but admins.

const UNAVAILABLE = 'This part of the shop is unavailable right now.';

/** The remote's page rendered inside the shell: its heading in the main area, no failure notice. */
async function expectRemotePage(page: Page, heading: string | RegExp) {
  await expect(page.getByRole('main').getByRole('heading', { level: 1, name: heading })).toBeVisible();
  await expect(page.getByText(UNAVAILABLE)).toHaveCount(0);
}

function requestsTo(urls: string[], port: number) {
  return urls.filter((url) => new URL(url).port === String(port));
}

test.describe('an administrator', () => {
  test.use({ role: 'admin' });

  test('moves through a page of every remote in one page load, with react-dom downloaded once, from the shell', async ({
    page,
    requestedUrls,
  }) => {
    await page.goto('/search');
    await expectRemotePage(page, 'Browse products');

    const header = page.getByRole('navigation', { name: 'Main' });
    await header.getByRole('link', { name: /^your cart \(\d+\)$/ }).click();
    await expect(page).toHaveURL(/\/cart$/);
    await expectRemotePage(page, 'Checkout');

    await header.getByRole('link', { name: 'my account' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expectRemotePage(page, 'Order history');

    await page.getByRole('navigation', { name: 'Admin toolbar' }).getByRole('link', { name: 'My admin' }).click();
    await expect(page).toHaveURL(/\/admin$/);
    await expectRemotePage(page, /.+/);

    const shellPort = String(stackPort('shell'));
    const reactDom = requestedUrls.filter((url) => new URL(url).pathname.includes('react-dom'));
    expect(reactDom.length, 'react-dom was downloaded').toBeGreaterThan(0);
    expect(
      reactDom.filter((url) => new URL(url).port !== shellPort),
      'react-dom chunks of a remote',
    ).toEqual([]);
    expect(
      reactDom.filter((url) => url.includes('react-dom_client')),
      'react-dom/client, the renderer',
    ).toHaveLength(1);
    expect(new Set(reactDom).size, 'no react-dom file twice').toBe(reactDom.length);
    // The positive control for the journey below: an admin does load mf_admin.
    expect(requestsTo(requestedUrls, stackPort('mf-admin')).length).toBeGreaterThan(0);
  });
});

/** axe on what the shell draws around the remotes: toolbar, header and menu, sidebar, footer. */
async function frameViolations(page: Page) {
  const { violations } = await new AxeBuilder({ page }).include('header').include('nav').include('aside').include('footer').analyze();
  return violations.map(({ id, help, nodes }) => `${id}: ${help} (${nodes.length})`);
}

test.describe('the frame of the shop', () => {
  test.use({ role: 'admin' });

  test('has no accessibility violations, on a wide screen and with the small-screen menu open', async ({ page }) => {
    await page.goto('/dashboard');
    await expectRemotePage(page, 'Order history');
    expect(await frameViolations(page)).toEqual([]);

    await page.setViewportSize({ width: 500, height: 800 });
    const menu = page.getByRole('button', { name: 'Menu' });
    await menu.click();
    await expect(menu).toHaveAttribute('aria-expanded', 'true');
    await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Search' })).toBeVisible();
    expect(await frameViolations(page)).toEqual([]);
  });
});

test.describe('a visitor', () => {
  test('never makes the browser request anything of mf_admin, not even its manifest', async ({ page, requestedUrls }) => {
    await page.goto('/');
    await expect(page.getByRole('main')).toBeVisible();
    await page.goto('/search/yachts');
    await expectRemotePage(page, 'Browse products');
    await page.goto('/cart');
    await expectRemotePage(page, 'Checkout');
    await page.goto('/admin');
    await expect(page).toHaveURL(/\/login$/);
    await expectRemotePage(page, 'log in');

    expect(requestsTo(requestedUrls, stackPort('mf-admin'))).toEqual([]);
  });
});

test.describe('a shopper', () => {
  test.use({ role: 'shopper' });

  test('is sent from /admin to /login and on to /, and mf_admin is never requested', async ({ page, requestedUrls }) => {
    await page.goto('/admin');

    // /login sends a signed-in user on to the home page.
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'my account' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'My admin' })).toHaveCount(0);
    expect(requestsTo(requestedUrls, stackPort('mf-admin'))).toEqual([]);
  });

  test("sees the header's cart count follow a change made inside a remote, in this tab and in another", async ({ page, context }) => {
    // The two oldest products are seeded ones: journeys running in parallel add (newest) products
    // and delete them again, and the cart page drops a line whose product is gone.
    const products = await page.request.get('/api/products?limit=48');
    expect(products.ok()).toBe(true);
    const { data } = (await products.json()) as { data: { id: string; name: string; thumbnailUrl: string; priceCents: number }[] };
    const [first, second] = data.slice(-2);
    if (!first || !second) throw new Error('the demo catalogue has fewer than two products');

    // The cart lives in localStorage (key "cart"); put two lines there as earlier visits would have.
    await page.goto('/');
    await page.evaluate(
      (items) => localStorage.setItem('cart', JSON.stringify(items)),
      [
        { productId: first.id, name: first.name, thumbnailUrl: first.thumbnailUrl, priceCents: first.priceCents, quantity: 2 },
        { productId: second.id, name: second.name, thumbnailUrl: second.thumbnailUrl, priceCents: second.priceCents, quantity: 1 },
      ],
    );
    await page.goto('/cart');
    const cartLink = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /^your cart/ });
    await expect(cartLink).toHaveText('your cart (3)');

    const otherTab = await context.newPage();
    await otherTab.goto('/');
    const otherTabCartLink = otherTab.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /^your cart/ });
    await expect(otherTabCartLink).toHaveText('your cart (3)');

    // The X of a cart line belongs to mf_cart_checkout; the count belongs to the shell.
    await page.getByRole('button', { name: `Remove ${first.name}` }).click();

    await expect(cartLink).toHaveText('your cart (1)');
    await expect(otherTabCartLink).toHaveText('your cart (1)');
  });
});

test.describe('a remote served alone', () => {
  // Remotes run on the shell's copy of the MF runtime (docs/ARCHITECTURE.md, "One runtime per
  // page"); their own standalone page must still start, from the provider it ships (mf-runtime.js).
  test('still renders its own page, with the runtime from its mf-runtime.js', async ({ page }) => {
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const runtime = page.waitForResponse((response) => response.url().endsWith('/mf-runtime.js'));
    await page.goto(`http://localhost:${stackPort('mf-catalog')}/`);

    expect((await runtime).ok()).toBe(true);
    await expect(page.getByRole('navigation', { name: 'Catalog pages' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 1, name: 'Sailing boats and yachts' })).toBeVisible();
    expect(errors).toEqual([]);
  });
});
