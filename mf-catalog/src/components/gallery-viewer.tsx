import Lightbox, { type Slide } from 'yet-another-react-lightbox';
import Zoom from 'yet-another-react-lightbox/plugins/zoom';
import type { ProductPicture } from '@boatshop/contract';
import './gallery-viewer.css';

/** The viewer shows WebP (every browser it runs in has it), each width for its own screen. */
export function slideOf(picture: ProductPicture, fallbackAlt: string): Slide {
  const alt = picture.alt || fallbackAlt;
  const webp = picture.variants.filter((variant) => variant.format === 'webp');
  if (webp.length === 0 || !picture.width || !picture.height) return { src: picture.src, alt };
  const largest = webp.at(-1)!;
  const heightAt = (width: number) => Math.round((picture.height! * width) / picture.width!);
  return {
    src: largest.url,
    alt,
    width: largest.width,
    height: heightAt(largest.width),
    srcSet: webp.map((variant) => ({ src: variant.url, width: variant.width, height: heightAt(variant.width) })),
  };
}

interface GalleryViewerProps {
  pictures: ProductPicture[];
  index: number;
  fallbackAlt: string;
  onClose: () => void;
}

/**
 * Full screen (yet-another-react-lightbox): arrow keys and swipes move between pictures, Escape
 * closes, the zoom plugin zooms by wheel, pinch, double tap or its buttons. Focus returns to the
 * picture that opened it.
 */
export default function GalleryViewer({ pictures, index, fallbackAlt, onClose }: GalleryViewerProps) {
  return (
    <Lightbox
      open
      index={index}
      close={onClose}
      slides={pictures.map((picture) => slideOf(picture, fallbackAlt))}
      plugins={[Zoom]}
      className="catalog-lightbox"
      carousel={{ finite: pictures.length <= 1 }}
      render={pictures.length <= 1 ? { buttonPrev: () => null, buttonNext: () => null } : {}}
    />
  );
}
