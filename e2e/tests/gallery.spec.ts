import type { Locator, Page } from '@playwright/test';
import exifr from 'exifr';
import sharp from 'sharp';
import { CatalogueAdmin } from '../support/catalogue-admin';
import { expect, test } from '../support/fixtures';

// The gallery's promise: an admin drops several photos on a boat at once, puts them in order and
// describes them; the shopper's product page shows them in that order, as files without the
// photo's GPS position, and the full-screen viewer moves through them from the keyboard.

interface Photo {
  name: string;
  width: number;
  height: number;
  alt: string;
  bytes: Buffer;
}

async function photo(name: string, width: number, height: number, colour: string, alt: string, gps = false): Promise<Photo> {
  let image = sharp({ create: { width, height, channels: 3, background: colour } }).jpeg();
  if (gps) {
    image = image.withExif({
      IFD0: { Make: 'Journey phone' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '43/1 17/1 2400/100', GPSLongitudeRef: 'E', GPSLongitude: '5/1 22/1 1200/100' },
    });
  }
  return { name, width, height, alt, bytes: await image.toBuffer() };
}

/** Drops the files on the zone as a browser's drag and drop does (a DataTransfer with Files). */
async function dropFiles(page: Page, zone: Locator, photos: Photo[]): Promise<void> {
  const files = photos.map((p) => ({ name: p.name, base64: p.bytes.toString('base64') }));
  const dataTransfer = await page.evaluateHandle((list) => {
    const transfer = new DataTransfer();
    for (const file of list) {
      const bytes = Uint8Array.from(atob(file.base64), (char) => char.charCodeAt(0));
      transfer.items.add(new File([bytes], file.name, { type: 'image/jpeg' }));
    }
    return transfer;
  }, files);
  await zone.dispatchEvent('dragover', { dataTransfer });
  await zone.dispatchEvent('drop', { dataTransfer });
}

test.describe('a boat gallery', () => {
  test.use({ role: 'admin' });

  test('an admin uploads three photos, orders and describes them; the shopper sees them in that order without GPS data', async ({
    page,
    browser,
    playwright,
    signedInState,
  }) => {
    test.setTimeout(180_000);
    const admin = await CatalogueAdmin.open(playwright, await signedInState('admin'));
    try {
      const boat = await admin.add(`Gallery Ketch ${Date.now()}`, 12_345_600);
      const marina = await photo('marina.jpg', 1200, 800, '#2f6f8f', 'Moored at the marina', true);
      const cockpit = await photo('cockpit.jpg', 1000, 750, '#b5651d', 'The cockpit');
      const saloon = await photo('saloon.jpg', 900, 600, '#d8c9a3', 'The saloon');
      expect(await exifr.gps(marina.bytes), 'the marina photo carries its position').toMatchObject({ latitude: 43.29 });

      await page.goto('/admin');
      await page.getByRole('button', { name: `Pictures of ${boat.name}` }).click();
      const dialog = page.getByRole('dialog', { name: `Pictures of “${boat.name}”` });
      await expect(dialog.getByText('Picture 1 (card picture) · linked address')).toBeVisible();

      await dropFiles(page, dialog.getByTestId('picture-drop-zone'), [marina, cockpit, saloon]);
      for (const file of [marina, cockpit, saloon]) {
        await expect(dialog.getByRole('progressbar', { name: `${file.name} upload progress` })).toBeVisible();
      }
      await expect(dialog.getByText(/^Done$/)).toHaveCount(3, { timeout: 90_000 });
      await page.screenshot({ path: '/work/shots/gallery-admin-uploads.png' }).catch(() => undefined);
      for (const file of [marina, cockpit, saloon]) {
        await expect(dialog.getByRole('progressbar', { name: `${file.name} upload progress` })).toHaveJSProperty('value', 1);
      }

      const pictures = dialog.getByRole('list', { name: /in the order shoppers see them/ });
      const rows = pictures.getByRole('listitem');
      await expect(rows).toHaveCount(4);
      const rowOf = (p: Photo) => rows.filter({ hasText: `${p.width} × ${p.height}` });
      for (const file of [marina, cockpit, saloon]) {
        const row = rowOf(file);
        await row.getByRole('textbox').fill(file.alt);
        await row.getByRole('button', { name: /^Save/ }).click();
        await expect(dialog.getByRole('status')).toHaveText('Text alternative saved.');
      }

      // The order wanted: saloon, marina, cockpit, then the typed picture.
      const order = async () => pictures.getByRole('textbox').evaluateAll((boxes) => boxes.map((box) => (box as HTMLInputElement).value));
      // The saloon first by dragging it onto the first place…
      await rowOf(saloon).dragTo(rows.first());
      await expect.poll(order).toEqual(expect.arrayContaining([saloon.alt]));
      await expect.poll(async () => (await order())[0]).toBe(saloon.alt);
      // …then the others from the keyboard: Move up, and Alt+ArrowUp on it.
      for (const file of [marina, cockpit]) {
        const wanted = file === marina ? 1 : 2;
        for (let index = (await order()).indexOf(file.alt); index > wanted; index -= 1) {
          const moveUp = rowOf(file).getByRole('button', { name: /^Move up/ });
          if (index % 2 === 0) await moveUp.click();
          else {
            await moveUp.focus();
            await page.keyboard.press('Alt+ArrowUp');
          }
          await expect.poll(async () => (await order()).indexOf(file.alt)).toBe(index - 1);
        }
      }
      await expect.poll(order).toEqual([saloon.alt, marina.alt, cockpit.alt, boat.name]);
      await page.screenshot({ path: '/work/shots/gallery-admin-uploader.png' }).catch(() => undefined);
      await dialog.getByRole('button', { name: 'Close' }).click();

      // The shopper, without a session.
      const shopperContext = await browser.newContext({ storageState: { cookies: [], origins: [] } });
      try {
        const shop = await shopperContext.newPage();
        await shop.goto(`/product/${boat.id}`);
        const gallery = shop.getByRole('button', { name: /full screen$/ });
        await expect(gallery).toHaveCount(4);
        const images = gallery.getByRole('img');
        await expect(images).toHaveCount(4);
        expect(await images.evaluateAll((all) => all.map((image) => image.getAttribute('alt')))).toEqual([
          saloon.alt,
          marina.alt,
          cockpit.alt,
          boat.name,
        ]);
        await expect(images.first()).toHaveAttribute('loading', 'eager');
        await expect(images.nth(1)).toHaveAttribute('loading', 'lazy');

        // The files the browser got, and the JPEG every browser can get: no position, no EXIF at all.
        const marinaImage = images.nth(1);
        await marinaImage.scrollIntoViewIfNeeded();
        await expect.poll(() => marinaImage.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0)).toBe(true);
        const served = await marinaImage.evaluate((image: HTMLImageElement) => [image.currentSrc, image.src]);
        for (const url of served) {
          const response = await shop.request.get(url);
          expect(response.status()).toBe(200);
          expect(response.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
          const bytes = await response.body();
          expect(await exifr.gps(bytes).catch(() => undefined), `${url} has no GPS`).toBeUndefined();
        }
        await shop.screenshot({ path: '/work/shots/gallery-product.png', fullPage: false }).catch(() => undefined);

        // Full screen: opens at the picture clicked, moves with the arrow keys, closes with Escape.
        await gallery.first().click();
        const viewer = shop.getByRole('dialog', { name: 'Lightbox' });
        await expect(viewer).toBeVisible();
        await expect(viewer.locator(`img[alt="${saloon.alt}"]`)).toBeInViewport();
        await shop.keyboard.press('ArrowRight');
        await expect(viewer.locator(`img[alt="${marina.alt}"]`)).toBeInViewport();
        await shop.keyboard.press('ArrowRight');
        await expect(viewer.locator(`img[alt="${cockpit.alt}"]`)).toBeInViewport();
        await shop.screenshot({ path: '/work/shots/gallery-lightbox.png' }).catch(() => undefined);
        await shop.keyboard.press('ArrowLeft');
        await expect(viewer.locator(`img[alt="${marina.alt}"]`)).toBeInViewport();
        await shop.keyboard.press('Escape');
        await expect(viewer).toBeHidden();
      } finally {
        await shopperContext.close();
      }
    } finally {
      await admin.close();
    }
  });
});
