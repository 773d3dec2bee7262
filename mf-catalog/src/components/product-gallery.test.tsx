import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Product, ProductPicture } from '@boatshop/contract';
import { GALLERY_MAIN_SIZES } from '@boatshop/contract/constants';
import { ProductGallery } from './product-gallery';
import { slideOf } from './gallery-viewer';

afterEach(cleanup);

const ID = '7c0a3c1e-8f1e-4a57-9d5b-0c1f2f3a4b5c';

function uploaded(n: number, alt: string): ProductPicture {
  const key = `${ID}/${String(n).repeat(32)}`;
  const variants = (['avif', 'webp', 'jpeg'] as const).flatMap((format) =>
    [400, 800, 1600].map((width) => ({ format, width, url: `/api/pictures/${key}-${width}.${format === 'jpeg' ? 'jpg' : format}` })),
  );
  return {
    id: `${n}0000000-0000-4000-8000-000000000000`,
    alt,
    src: `/api/pictures/${key}-800.jpg`,
    width: 1600,
    height: 1200,
    placeholder: 'data:image/jpeg;base64,AAAA',
    variants,
  };
}

const PRODUCT: Product = {
  id: ID,
  name: 'Aurora Bay 40',
  thumbnailUrl: '/api/pictures/x-800.jpg',
  priceCents: 100,
  descriptionHtml: '',
  category: 'sailing-boats',
  createdAt: '2026-11-26T00:00:00.000Z',
  stock: 1,
  availability: 'in_stock',
  pictures: [
    uploaded(1, 'Under sail'),
    { id: 'link', alt: '', src: '/api/images/aurora-bay-40.svg', width: null, height: null, placeholder: null, variants: [] },
    uploaded(2, 'The saloon'),
  ],
};

describe('the product gallery', () => {
  it("shows every picture in the admin's order, the first large and eager, the rest lazy", () => {
    render(<ProductGallery product={PRODUCT} />);
    const images = screen.getAllByRole('img');
    expect(images.map((image) => image.getAttribute('alt'))).toEqual(['Under sail', 'Aurora Bay 40', 'The saloon']);
    expect(images.map((image) => image.getAttribute('loading'))).toEqual(['eager', 'lazy', 'lazy']);
    expect(images[0]!.getAttribute('fetchpriority')).toBe('high');
    // Its box is reserved before it loads, with the blurred placeholder in it.
    expect(images[0]).toMatchObject({ width: 1600, height: 1200 });
    const frame = images[0]!.closest('.catalog-gallery__frame')!;
    expect(frame.querySelector('img[aria-hidden="true"]')!.getAttribute('src')).toBe('data:image/jpeg;base64,AAAA');
    // No inline style: the shop's Content-Security-Policy refuses style attributes.
    expect(frame.outerHTML).not.toContain('style=');
    const sources = images[0]!.closest('picture')!.querySelectorAll('source');
    expect([...sources].map((source) => source.getAttribute('type'))).toEqual(['image/avif', 'image/webp']);
    expect(sources[0]!.getAttribute('srcset')).toBe(
      `/api/pictures/${ID}/${'1'.repeat(32)}-400.avif 400w, /api/pictures/${ID}/${'1'.repeat(32)}-800.avif 800w, /api/pictures/${ID}/${'1'.repeat(32)}-1600.avif 1600w`,
    );
    expect(sources[0]!.getAttribute('sizes')).toBe(GALLERY_MAIN_SIZES);
    expect(images[0]!.getAttribute('srcset')).toContain('-1600.jpg 1600w');
    // A linked picture is a plain image in a 4:3 box.
    expect(images[1]).toMatchObject({ width: 800, height: 600 });
    expect(images[1]!.closest('picture')).toBeNull();
  });

  it('shows the card picture alone for an answer without pictures', () => {
    render(<ProductGallery product={{ ...PRODUCT, pictures: undefined }} />);
    expect(screen.getByRole('img', { name: 'Aurora Bay 40' }).getAttribute('src')).toBe('/api/pictures/x-800.jpg');
    expect(screen.getByRole('button', { name: 'Show the picture full screen' })).toBeDefined();
  });

  it("hydrates the server's HTML without a mismatch (the viewer is not in it)", async () => {
    const html = renderToString(<ProductGallery product={PRODUCT} />);
    expect(html).not.toContain('yarl__');
    const container = document.createElement('div');
    container.innerHTML = html;
    document.body.append(container);
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const recoverable: unknown[] = [];
    await act(async () => {
      hydrateRoot(container, <ProductGallery product={PRODUCT} />, { onRecoverableError: (error) => recoverable.push(error) });
    });
    expect(recoverable).toEqual([]);
    expect(errors).not.toHaveBeenCalled();
    errors.mockRestore();
    container.remove();
  });

  it('opens the full-screen viewer at the picture clicked', async () => {
    render(<ProductGallery product={PRODUCT} />);
    fireEvent.click(screen.getByRole('button', { name: 'Show picture 3 of 3 full screen' }));
    const viewer = await screen.findByRole('dialog', {}, { timeout: 5000 });
    expect(within(viewer).getByRole('img', { name: 'The saloon' })).toBeDefined();
  });

  it("gives the viewer each picture's WebP widths with their heights", () => {
    expect(slideOf(uploaded(1, ''), 'Aurora Bay 40')).toMatchObject({
      alt: 'Aurora Bay 40',
      width: 1600,
      height: 1200,
      srcSet: [
        { width: 400, height: 300 },
        { width: 800, height: 600 },
        { width: 1600, height: 1200 },
      ],
    });
  });
});
