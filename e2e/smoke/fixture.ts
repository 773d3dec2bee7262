import { test as base, expect, type Page } from '@playwright/test';

// Every smoke journey: the operator's preview cookie (SMOKE_PREVIEW_COOKIE, `name=value`) in the
// browser context when a promotion runs it, and after the journey three checks: no uncaught error
// in the page, no failure notice of a remote, and (when SMOKE_RELEASE names the candidate) that
// the remote's files came from the candidate release and from no other, so a smoke run can never
// pass on the live release by mistake.

export const UNAVAILABLE = 'This part of the shop is unavailable right now.';

const candidate =
  process.env.SMOKE_REMOTE && process.env.SMOKE_RELEASE ? { remote: process.env.SMOKE_REMOTE, release: process.env.SMOKE_RELEASE } : null;

export const test = base.extend({
  context: async ({ context, baseURL }, use) => {
    const preview = process.env.SMOKE_PREVIEW_COOKIE;
    if (preview) {
      const index = preview.indexOf('=');
      await context.addCookies([
        { name: preview.slice(0, index), value: preview.slice(index + 1), url: baseURL!, httpOnly: true, sameSite: 'Lax' },
      ]);
    }
    await use(context);
  },
  page: async ({ page }, use) => {
    const errors: string[] = [];
    const loaded: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('response', (response) => loaded.push(response.url()));
    await use(page);
    expect(errors, 'uncaught errors in the page').toEqual([]);
    await expect(page.getByText(UNAVAILABLE), 'a remote failed to load or render').toHaveCount(0);
    if (candidate) {
      const ofRemote = loaded.filter((url) => url.includes(`/${candidate.remote}/`) && /\/\d+\.\d+\.\d+[^/]*-[0-9a-f]{12}\//.test(url));
      expect(
        ofRemote.some((url) => url.includes(`/${candidate.remote}/${candidate.release}/`)),
        `the page loaded the candidate ${candidate.remote} ${candidate.release}`,
      ).toBe(true);
      expect(
        ofRemote.filter((url) => !url.includes(`/${candidate.remote}/${candidate.release}/`)),
        'files of another release of the remote',
      ).toEqual([]);
    }
  },
});

export { expect };

/** The remote's page in the shell: its level-1 heading in the main area. */
export async function expectPage(page: Page, heading: string | RegExp): Promise<void> {
  await expect(page.getByRole('main').getByRole('heading', { level: 1, name: heading })).toBeVisible();
}

/** The product cards of a listing (each has an Add to cart button). */
export const productCards = (page: Page) =>
  page
    .getByRole('main')
    .getByRole('listitem')
    .filter({ has: page.getByRole('button', { name: 'Add to cart' }) });

/** From the home page's first category tile to the first product's page; answers the product's name. */
export async function homeToProduct(page: Page): Promise<string> {
  await page.goto('/');
  await expectPage(page, 'Sailing boats and yachts');
  await page.getByRole('link', { name: 'Sailing boats' }).click();
  await expect(page).toHaveURL(/\/search\/sailing-boats$/);
  await expectPage(page, 'Browse products');
  const card = productCards(page).first();
  const name = (await card.getByRole('img').getAttribute('alt'))!;
  await card.getByRole('link', { name }).first().click();
  await expect(page).toHaveURL(/\/product\/[0-9a-f-]{36}$/);
  await expectPage(page, name);
  return name;
}
