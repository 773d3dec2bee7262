import { MAX_PICTURES_PER_PRODUCT, PICTURE_MAX_BYTES, type ProductPicture } from '@boatshop/contract';
import exifr from 'exifr';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { insertProduct } from '../../helpers/products.js';
import { bombPng, jpegWithGps, multipart, plainPng } from '../../helpers/pictures.js';
import { createUserWithSession } from '../../helpers/users.js';
import { testWithApp, type TestApp } from '../../support/fixtures.js';

const storageDir = mkdtempSync(path.join(tmpdir(), 'boatshop-pictures-'));
const it = testWithApp({ config: { pictures: { storage: { kind: 'local', dir: storageDir }, maxPixels: 100_000_000 } } });

type Headers = Record<string, string>;

async function upload(
  app: TestApp,
  headers: Headers,
  productId: string,
  file: { name: string; type: string; body: Buffer } | null,
  alt?: string,
) {
  const body = multipart(file, alt === undefined ? {} : { alt });
  return app.inject({
    method: 'POST',
    url: `/api/admin/products/${productId}/pictures`,
    headers: { ...headers, ...body.headers },
    payload: body.payload,
  });
}

const jpeg = (body: Buffer, name = 'boat.jpg') => ({ name, type: 'image/jpeg', body });

/** A boat made through the admin API, so it has its typed picture as its first picture. */
async function boat(app: TestApp, headers: Headers): Promise<string> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/admin/products',
    headers,
    payload: {
      name: 'Aurora Bay 40',
      thumbnailUrl: '/api/images/aurora-bay-40.svg',
      priceCents: 9_900_000,
      descriptionHtml: '<p>A boat.</p>',
      category: 'sailing-boats',
    },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().id;
}

async function pictures(app: TestApp, productId: string): Promise<ProductPicture[]> {
  const response = await app.inject({ url: `/api/products/${productId}` });
  expect(response.statusCode).toBe(200);
  return response.json().pictures;
}

describe('POST /api/admin/products/:id/pictures', () => {
  it('stores a phone photo as AVIF, WebP and JPEG at several widths, without its GPS position', async ({ app, admin }) => {
    const id = await boat(app, admin.headers);
    const original = await jpegWithGps({ width: 2000, height: 1500 });
    expect(await exifr.gps(original)).toMatchObject({ latitude: 43.29 });

    const response = await upload(app, admin.headers, id, jpeg(original), 'The cockpit at dusk');
    expect(response.statusCode, response.body).toBe(201);
    const picture: ProductPicture = response.json();
    expect(picture).toMatchObject({ alt: 'The cockpit at dusk', width: 1600, height: 1200 });
    expect(picture.placeholder).toMatch(/^data:image\/jpeg;base64,/);
    expect(picture.placeholder!.length).toBeLessThan(1500);
    expect(picture.variants.map((v) => `${v.format}@${v.width}`).sort()).toEqual(
      ['avif@400', 'avif@800', 'avif@1600', 'webp@400', 'webp@800', 'webp@1600', 'jpeg@400', 'jpeg@800', 'jpeg@1600'].sort(),
    );

    for (const variant of picture.variants) {
      const file = await app.inject({ url: variant.url });
      expect(file.statusCode).toBe(200);
      expect(file.headers['content-type']).toBe({ avif: 'image/avif', webp: 'image/webp', jpeg: 'image/jpeg' }[variant.format]);
      expect(file.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      const bytes = file.rawPayload;
      // No GPS, and no EXIF at all: the camera's make and serial are personal too.
      expect(await exifr.gps(bytes).catch(() => undefined)).toBeUndefined();
      expect(await exifr.parse(bytes).catch(() => undefined)).toBeUndefined();
    }

    // Linked demo picture first, the upload second; the card picture is unchanged.
    const list = await pictures(app, id);
    expect(list.map((p) => p.id)).toEqual([list[0]!.id, picture.id]);
    expect(list[0]).toMatchObject({ src: '/api/images/aurora-bay-40.svg', variants: [] });
  });

  it('refuses a text file renamed to .jpg (415), judging by content, not name or claimed type', async ({ app, admin }) => {
    const id = await boat(app, admin.headers);
    const response = await upload(app, admin.headers, id, jpeg(Buffer.from('name,price\nAurora,99000\n'.repeat(50)), 'photo.jpg'));
    expect(response.statusCode).toBe(415);
    expect(response.json().error.code).toBe('UNSUPPORTED_PICTURE');
    expect(await pictures(app, id)).toHaveLength(1);
  });

  it('refuses a picture type the shop does not take (415)', async ({ app, admin }) => {
    const id = await boat(app, admin.headers);
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
    const response = await upload(app, admin.headers, id, { name: 'boat.png', type: 'image/png', body: pdf });
    expect(response.statusCode).toBe(415);
    expect(response.json().error.message).toContain('application/pdf');
  });

  it('refuses a decompression bomb before decoding it (422)', async ({ app, admin }) => {
    const id = await boat(app, admin.headers);
    const bomb = bombPng();
    expect(bomb.length).toBeLessThan(10_000);
    const started = Date.now();
    const response = await upload(app, admin.headers, id, { name: 'bomb.png', type: 'image/png', body: bomb });
    expect(response.statusCode, response.body).toBe(422);
    expect(response.json().error).toMatchObject({ code: 'TOO_MANY_PIXELS' });
    expect(response.json().error.message).toContain('50000 × 50000');
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('refuses a file over 25 MB (413)', async ({ app, admin }) => {
    const id = await boat(app, admin.headers);
    const big = Buffer.concat([await plainPng(), Buffer.alloc(PICTURE_MAX_BYTES)]);
    const response = await upload(app, admin.headers, id, { name: 'huge.png', type: 'image/png', body: big });
    expect(response.statusCode).toBe(413);
    expect(response.json().error).toMatchObject({ code: 'PICTURE_TOO_LARGE', message: 'A picture may be at most 25 MB' });
  });

  it('refuses the 61st picture (409), an unknown boat (404), a missing file (400) and a JSON body (415)', async ({ app, admin }) => {
    const id = await boat(app, admin.headers);
    await app.db
      .insertInto('product_pictures')
      .values(
        Array.from({ length: MAX_PICTURES_PER_PRODUCT - 1 }, (_, index) => ({
          product_id: id,
          position: index + 1,
          url: `https://cdn.example.test/${index}.jpg`,
        })),
      )
      .execute();
    const full = await upload(app, admin.headers, id, jpeg(await jpegWithGps()));
    expect(full.statusCode).toBe(409);
    expect(full.json().error.code).toBe('TOO_MANY_PICTURES');

    const unknown = await upload(app, admin.headers, '00000000-0000-4000-8000-000000000000', jpeg(await jpegWithGps()));
    expect(unknown.statusCode).toBe(404);
    const notAnId = await upload(app, admin.headers, 'boat-1', jpeg(await jpegWithGps()));
    expect(notAnId.statusCode).toBe(404);

    const other = await boat(app, admin.headers);
    const noFile = await upload(app, admin.headers, other, null, 'alt only');
    expect(noFile.statusCode).toBe(400);
    const json = await app.inject({
      method: 'POST',
      url: `/api/admin/products/${other}/pictures`,
      headers: admin.headers,
      payload: { file: 'x' },
    });
    expect(json.statusCode).toBe(415);
  });

  it('answers a malformed multipart body with 400, never 500', async ({ app, admin }) => {
    const id = await boat(app, admin.headers);
    for (const payload of ['abc', '--x\r\n', '--x\r\nContent-Disposition: form-data; name="file"; filename="a.jpg"\r\n\r\nabc']) {
      const response = await app.inject({
        method: 'POST',
        url: `/api/admin/products/${id}/pictures`,
        headers: { ...admin.headers, 'content-type': 'multipart/form-data; boundary=x' },
        payload,
      });
      expect(response.statusCode, payload).toBe(400);
      expect(response.json().error.code).toBe('MALFORMED_UPLOAD');
    }
  });

  it('lets an editor upload and refuses sales staff (403) and shoppers (403)', async ({ app, admin, shopper }) => {
    const id = await boat(app, admin.headers);
    const editor = await createUserWithSession(app, { roles: ['user', 'editor'] });
    const sales = await createUserWithSession(app, { roles: ['user', 'sales'] });
    expect((await upload(app, editor.headers, id, jpeg(await plainPng(), 'a.png'))).statusCode).toBe(201);
    expect((await upload(app, sales.headers, id, jpeg(await plainPng(700), 'b.png'))).statusCode).toBe(403);
    expect((await upload(app, shopper.headers, id, jpeg(await plainPng(710), 'c.png'))).statusCode).toBe(403);
  });
});

describe('ordering, text alternatives and deletion', () => {
  async function boatWithUploads(app: TestApp, headers: Headers): Promise<{ id: string; ids: string[] }> {
    const id = await boat(app, headers);
    for (const colour of ['#112233', '#445566']) {
      const response = await upload(app, headers, id, { name: 'p.png', type: 'image/png', body: await plainPng(900, 600, colour) });
      expect(response.statusCode, response.body).toBe(201);
    }
    return { id, ids: (await pictures(app, id)).map((p) => p.id) };
  }
  const order = (app: TestApp, headers: Headers, id: string, ids: string[]) =>
    app.inject({ method: 'PUT', url: `/api/admin/products/${id}/pictures/order`, headers, payload: { ids } });

  it('puts an upload first: it becomes the card picture; the same order again changes nothing', async ({ app, admin }) => {
    const { id, ids } = await boatWithUploads(app, admin.headers);
    const wanted = [ids[2]!, ids[0]!, ids[1]!];
    const first = await order(app, admin.headers, id, wanted);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().data.map((p: ProductPicture) => p.id)).toEqual(wanted);
    const product = (await app.inject({ url: `/api/products/${id}` })).json();
    expect(product.thumbnailUrl).toBe(first.json().data[0].src);
    expect(product.thumbnailUrl).toMatch(/^\/api\/pictures\/.+-800\.jpg$/);
    const listed = (await app.inject({ url: '/api/products' })).json().data[0];
    expect(listed.thumbnailUrl).toBe(product.thumbnailUrl);

    const again = await order(app, admin.headers, id, wanted);
    expect(again.statusCode).toBe(200);
    expect((await pictures(app, id)).map((p) => p.id)).toEqual(wanted);
  });

  it('refuses an order made from a stale list (409) or naming a picture twice (400)', async ({ app, admin }) => {
    const { id, ids } = await boatWithUploads(app, admin.headers);
    expect((await order(app, admin.headers, id, [ids[1]!, ids[0]!])).statusCode).toBe(409);
    expect((await order(app, admin.headers, id, [ids[0]!, ids[0]!, ids[1]!])).statusCode).toBe(400);
    expect((await pictures(app, id)).map((p) => p.id)).toEqual(ids);
  });

  it('two admins reordering at once: each order is applied whole, one after the other', async ({ app, admin }) => {
    const { id, ids } = await boatWithUploads(app, admin.headers);
    const orders = [
      [ids[2]!, ids[1]!, ids[0]!],
      [ids[1]!, ids[0]!, ids[2]!],
      [ids[0]!, ids[2]!, ids[1]!],
    ];
    const answers = await Promise.all(orders.flatMap((ids_) => [order(app, admin.headers, id, ids_), order(app, admin.headers, id, ids_)]));
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200, 200, 200]);
    const final = (await pictures(app, id)).map((p) => p.id);
    expect(orders).toContainEqual(final);
    const positions = await app.db
      .selectFrom('product_pictures')
      .select('position')
      .where('product_id', '=', id)
      .orderBy('position')
      .execute();
    expect(positions.map((row) => row.position)).toEqual([0, 1, 2]);
  });

  it('a reorder racing a deletion: the deletion wins or the reorder is refused, never a gap', async ({ app, admin }) => {
    const { id, ids } = await boatWithUploads(app, admin.headers);
    const [reordered, deleted] = await Promise.all([
      order(app, admin.headers, id, [ids[2]!, ids[1]!, ids[0]!]),
      app.inject({ method: 'DELETE', url: `/api/admin/products/${id}/pictures/${ids[1]}`, headers: admin.headers }),
    ]);
    expect(deleted.statusCode).toBe(204);
    expect([200, 409]).toContain(reordered.statusCode);
    const positions = await app.db
      .selectFrom('product_pictures')
      .select('position')
      .where('product_id', '=', id)
      .orderBy('position')
      .execute();
    expect(positions.map((row) => row.position)).toEqual([0, 1]);
  });

  it('edits a text alternative, refuses one too long (400) or of another boat (404)', async ({ app, admin }) => {
    const { id, ids } = await boatWithUploads(app, admin.headers);
    const put = (pictureId: string, alt: string, productId = id) =>
      app.inject({
        method: 'PUT',
        url: `/api/admin/products/${productId}/pictures/${pictureId}`,
        headers: admin.headers,
        payload: { alt },
      });
    const ok = await put(ids[1]!, '  The saloon, looking forward  ');
    expect(ok.statusCode).toBe(200);
    expect(ok.json().alt).toBe('The saloon, looking forward');
    expect((await put(ids[1]!, 'x'.repeat(301))).statusCode).toBe(400);
    const other = await boat(app, admin.headers);
    expect((await put(ids[1]!, 'Hijack', other)).statusCode).toBe(404);
  });

  it('deletes a picture with its files, keeps the last one, and deleting the boat deletes every file', async ({ app, admin }) => {
    const { id, ids } = await boatWithUploads(app, admin.headers);
    const filesOf = () =>
      (readdirSync(storageDir, { recursive: true }) as string[]).filter((name) => name.startsWith(id) && /\.(avif|webp|jpg)$/.test(name));
    expect(filesOf()).toHaveLength(18);
    const deleted = await app.inject({ method: 'DELETE', url: `/api/admin/products/${id}/pictures/${ids[1]}`, headers: admin.headers });
    expect(deleted.statusCode).toBe(204);
    expect(filesOf()).toHaveLength(9);
    const remaining = (await pictures(app, id)).map((p) => p.id);
    expect(remaining).toEqual([ids[0], ids[2]]);

    await app.inject({ method: 'DELETE', url: `/api/admin/products/${id}/pictures/${ids[0]}`, headers: admin.headers });
    const last = await app.inject({ method: 'DELETE', url: `/api/admin/products/${id}/pictures/${ids[2]}`, headers: admin.headers });
    expect(last.statusCode).toBe(409);
    expect(last.json().error.code).toBe('LAST_PICTURE');

    const gone = await app.inject({ method: 'DELETE', url: `/api/admin/products/${id}`, headers: admin.headers });
    expect(gone.statusCode).toBe(204);
    expect(filesOf()).toHaveLength(0);
    const row = await app.db.selectFrom('product_pictures').select('id').where('product_id', '=', id).execute();
    expect(row).toHaveLength(0);
  });

  it('a boat written without picture rows shows its card picture alone', async ({ app }) => {
    const row = await insertProduct(app, { thumbnail_url: 'https://cdn.example.test/boat.jpg', name: 'Plain boat' });
    expect(await pictures(app, row.id)).toEqual([
      {
        id: row.id,
        alt: 'Plain boat',
        src: 'https://cdn.example.test/boat.jpg',
        width: null,
        height: null,
        placeholder: null,
        variants: [],
      },
    ]);
  });

  it('a new address in the product form becomes the first picture; the current card address changes nothing', async ({ app, admin }) => {
    const { id, ids } = await boatWithUploads(app, admin.headers);
    await order(app, admin.headers, id, [ids[1]!, ids[0]!, ids[2]!]);
    const product = (await app.inject({ url: `/api/products/${id}` })).json();
    const form = {
      name: product.name,
      thumbnailUrl: product.thumbnailUrl,
      priceCents: product.priceCents,
      descriptionHtml: '<p>A boat.</p>',
      category: product.category,
    };
    const same = await app.inject({ method: 'PUT', url: `/api/admin/products/${id}`, headers: admin.headers, payload: form });
    expect(same.statusCode, same.body).toBe(200);
    expect((await pictures(app, id)).map((p) => p.id)).toEqual([ids[1], ids[0], ids[2]]);

    const typed = await app.inject({
      method: 'PUT',
      url: `/api/admin/products/${id}`,
      headers: admin.headers,
      payload: { ...form, thumbnailUrl: 'https://cdn.example.test/new.jpg' },
    });
    expect(typed.json().thumbnailUrl).toBe('https://cdn.example.test/new.jpg');
    const after = await pictures(app, id);
    expect(after).toHaveLength(4);
    expect(after[0]!.src).toBe('https://cdn.example.test/new.jpg');
  });
});
