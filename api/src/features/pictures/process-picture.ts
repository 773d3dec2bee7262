import { PICTURE_FORMATS, PICTURE_TYPES, type PictureFormat } from '@boatshop/contract';
import { fileTypeFromBuffer } from 'file-type';
import { createHash } from 'node:crypto';
import sharp, { type Metadata, type OutputInfo, type Sharp } from 'sharp';
import { ApiError } from '../../lib/errors.js';
import { PICTURE_CONTENT_TYPES, PICTURE_EXTENSIONS } from './picture-storage.js';

/** The widths each upload is stored at (never wider than it came); pages pick one through srcset. */
export const VARIANT_WIDTHS = [400, 800, 1600] as const;
/** The width of the card picture (thumbnailUrl), and of the JPEG that browsers without srcset get. */
export const CARD_WIDTH = 800;
const PLACEHOLDER_WIDTH = 16;

export interface ProcessedPicture {
  /** 32 hex of the upload's SHA-256: the same upload always gets the same files */
  storageKey: string;
  width: number;
  height: number;
  variantWidths: number[];
  placeholder: string;
  files: { key: string; body: Buffer; contentType: string }[];
}

export function variantKey(productId: string, storageKey: string, width: number, format: PictureFormat): string {
  return `${productId}/${storageKey}-${width}.${PICTURE_EXTENSIONS[format]}`;
}

/** Every stored file of an uploaded picture. */
export function variantKeys(productId: string, storageKey: string, widths: readonly number[]): string[] {
  return widths.flatMap((width) => PICTURE_FORMATS.map((format) => variantKey(productId, storageKey, width, format)));
}

/** The widths to store for a picture this wide: the standard ones below it, and its own (at most the largest). */
export function widthsFor(width: number): number[] {
  const largest = Math.min(width, VARIANT_WIDTHS.at(-1)!);
  return [...VARIANT_WIDTHS.filter((standard) => standard < largest), largest];
}

const unsupported = (found: string) =>
  new ApiError(415, 'UNSUPPORTED_PICTURE', `Upload a JPEG, PNG, WebP or AVIF picture (this file is ${found})`);

/**
 * An upload as the shop stores it: its type judged by its content (never its name or the type the
 * browser claims), refused beyond `maxPixels` before anything is decoded, turned upright, and
 * re-encoded from its pixels alone, so no EXIF (GPS, camera serial), XMP or comment survives.
 */
export async function processPicture(productId: string, bytes: Buffer, maxPixels: number): Promise<ProcessedPicture> {
  const type = await fileTypeFromBuffer(bytes);
  if (!type) throw unsupported('not a picture');
  if (!(PICTURE_TYPES as readonly string[]).includes(type.mime)) throw unsupported(type.mime);

  const options = { limitInputPixels: maxPixels, failOn: 'error' as const };
  let metadata: Metadata;
  try {
    // The header alone (nothing decoded), so a bomb's size can be named in the refusal.
    metadata = await sharp(bytes, { limitInputPixels: false, failOn: 'error' }).metadata();
  } catch {
    throw new ApiError(422, 'UNREADABLE_PICTURE', 'This picture cannot be read: it may be damaged');
  }
  const pixels = (metadata.width ?? 0) * (metadata.height ?? 0);
  if (pixels === 0) throw new ApiError(422, 'UNREADABLE_PICTURE', 'This picture cannot be read: it may be damaged');
  if (pixels > maxPixels) {
    throw new ApiError(
      422,
      'TOO_MANY_PIXELS',
      `This picture has ${metadata.width} × ${metadata.height} pixels; at most ${(maxPixels / 1e6).toLocaleString('en')} million are accepted`,
    );
  }

  // One decode: upright, at most the largest variant's width, as raw pixels; every file is made from those.
  let raw: { data: Buffer; info: OutputInfo };
  try {
    raw = await sharp(bytes, options)
      .rotate()
      .resize({ width: VARIANT_WIDTHS.at(-1)!, withoutEnlargement: true })
      .toColourspace('srgb')
      .raw()
      .toBuffer({ resolveWithObject: true });
  } catch (error) {
    if (/pixel limit/i.test(String(error))) throw new ApiError(422, 'TOO_MANY_PIXELS', 'This picture has too many pixels');
    throw new ApiError(422, 'UNREADABLE_PICTURE', 'This picture cannot be read: it may be damaged');
  }
  const { width, height, channels } = raw.info;
  const pixelsOf = () => sharp(raw.data, { raw: { width, height, channels: channels as 1 | 2 | 3 | 4 } });
  const storageKey = createHash('sha256').update(bytes).digest('hex').slice(0, 32);
  const variantWidths = widthsFor(width);

  const encode = (format: PictureFormat, image: Sharp) =>
    format === 'avif'
      ? image.avif({ quality: 50, effort: 2 })
      : format === 'webp'
        ? image.webp({ quality: 75 })
        : image.flatten({ background: '#ffffff' }).jpeg({ quality: 80, mozjpeg: true });

  const files = await Promise.all(
    variantWidths.flatMap((variantWidth) =>
      PICTURE_FORMATS.map(async (format) => {
        const key = variantKey(productId, storageKey, variantWidth, format);
        const body = await encode(format, pixelsOf().resize({ width: variantWidth })).toBuffer();
        return { key, body, contentType: PICTURE_CONTENT_TYPES[PICTURE_EXTENSIONS[format]]! };
      }),
    ),
  );
  const tiny = await pixelsOf()
    .resize({ width: PLACEHOLDER_WIDTH })
    .flatten({ background: '#ffffff' })
    .blur(0.6)
    .jpeg({ quality: 50 })
    .toBuffer();

  return {
    storageKey,
    width,
    height,
    variantWidths,
    placeholder: `data:image/jpeg;base64,${tiny.toString('base64')}`,
    files,
  };
}
