import type { ProductPicture } from '@boatshop/contract';

/** A linked picture's box until it loads (4:3, as the shop's shipped pictures are drawn). */
const LINKED_WIDTH = 800;
const LINKED_HEIGHT = 600;

/** "url 400w, url 800w" of one format's variants. */
export function srcSetOf(picture: ProductPicture, format: 'avif' | 'webp' | 'jpeg'): string {
  return picture.variants
    .filter((variant) => variant.format === format)
    .map((variant) => `${variant.url} ${variant.width}w`)
    .join(', ');
}

interface GalleryPictureProps {
  picture: ProductPicture;
  /** the picture's text alternative when it has none of its own */
  fallbackAlt: string;
  sizes: string;
  /** the page's largest paint: fetched first, never lazily */
  priority: boolean;
  className: string;
}

/**
 * One picture as the browser picks it: AVIF, then WebP, then JPEG, each at the width `sizes`
 * asks for; width and height reserve its box (no layout shift), and the blurred placeholder
 * fills the box until the picture arrives. A linked picture (an address) is a plain image.
 */
export function GalleryPicture({ picture, fallbackAlt, sizes, priority, className }: GalleryPictureProps) {
  const alt = picture.alt || fallbackAlt;
  const loading = priority ? 'eager' : 'lazy';
  const fetchPriority = priority ? 'high' : undefined;
  if (picture.variants.length === 0) {
    return (
      <img
        className={className}
        src={picture.src}
        alt={alt}
        width={LINKED_WIDTH}
        height={LINKED_HEIGHT}
        loading={loading}
        fetchPriority={fetchPriority}
        decoding="async"
      />
    );
  }
  // The placeholder is an image of its own under the picture (the shop's CSP allows no inline
  // style): a few hundred bytes of JPEG, blurred by CSS, covered once the picture has loaded.
  return (
    <span className="catalog-gallery__frame">
      {picture.placeholder ? <img className="catalog-gallery__placeholder" src={picture.placeholder} alt="" aria-hidden="true" /> : null}
      <picture>
        <source type="image/avif" srcSet={srcSetOf(picture, 'avif')} sizes={sizes} />
        <source type="image/webp" srcSet={srcSetOf(picture, 'webp')} sizes={sizes} />
        <img
          className={className}
          src={picture.src}
          srcSet={srcSetOf(picture, 'jpeg')}
          sizes={sizes}
          alt={alt}
          width={picture.width ?? LINKED_WIDTH}
          height={picture.height ?? LINKED_HEIGHT}
          loading={loading}
          fetchPriority={fetchPriority}
          decoding="async"
        />
      </picture>
    </span>
  );
}
