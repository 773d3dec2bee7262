import { lazy, Suspense, useState } from 'react';
import type { Product, ProductPicture } from '@boatshop/contract';
import { GALLERY_MAIN_SIZES, GALLERY_THUMB_SIZES } from '@boatshop/contract/constants';
import { GalleryPicture } from './gallery-picture';
import './product-gallery.css';

// The full-screen viewer and its library load on the first click only: never on the server, and
// never for a shopper who does not open it.
const GalleryViewer = lazy(() => import('./gallery-viewer'));

/** The pictures of a product page: the boat's picture alone when the answer has no list. */
export function picturesOf(product: Product): ProductPicture[] {
  if (product.pictures && product.pictures.length > 0) return product.pictures;
  return [{ id: product.id, alt: product.name, src: product.thumbnailUrl, width: null, height: null, placeholder: null, variants: [] }];
}

/**
 * The product page's pictures in the admin's order: the first large (the page's largest paint,
 * never lazy), the others below it, loaded as they scroll into view. Each opens the full-screen
 * viewer at itself. The same markup on the server and in the browser: the viewer is not part of
 * the first render.
 */
export function ProductGallery({ product }: { product: Product }) {
  const pictures = picturesOf(product);
  const [viewing, setViewing] = useState<number | null>(null);
  const [first, ...rest] = pictures;
  const count = pictures.length;
  const open = (index: number) => setViewing(index);
  const label = (index: number) => (count > 1 ? `Show picture ${index + 1} of ${count} full screen` : 'Show the picture full screen');

  return (
    <div className="catalog-gallery">
      <button type="button" className="catalog-gallery__open" onClick={() => open(0)} aria-label={label(0)}>
        <GalleryPicture picture={first!} fallbackAlt={product.name} sizes={GALLERY_MAIN_SIZES} priority className="catalog-product-image" />
      </button>
      {rest.length > 0 ? (
        <ul className="catalog-gallery__more" aria-label={`More pictures of ${product.name}`}>
          {rest.map((picture, offset) => (
            <li key={picture.id}>
              <button type="button" className="catalog-gallery__open" onClick={() => open(offset + 1)} aria-label={label(offset + 1)}>
                <GalleryPicture
                  picture={picture}
                  fallbackAlt={product.name}
                  sizes={GALLERY_THUMB_SIZES}
                  priority={false}
                  className="catalog-gallery__thumb"
                />
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      {viewing !== null ? (
        <Suspense fallback={null}>
          <GalleryViewer pictures={pictures} index={viewing} fallbackAlt={product.name} onClose={() => setViewing(null)} />
        </Suspense>
      ) : null}
    </div>
  );
}
