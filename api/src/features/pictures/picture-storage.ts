import type { Readable } from 'node:stream';

/**
 * Where uploaded pictures' files live: the API's local disk by default, an S3-compatible bucket
 * in production (docs/adr/0041). Keys are content-hashed (`<product>/<hash>-<width>.<ext>`), so
 * an object is written once and never changes: serving it with immutable caching is safe.
 */
export interface PictureStorage {
  readonly kind: 'local' | 's3';
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  /** The stored object, or null when there is none. */
  get(key: string): Promise<StoredObject | null>;
  /** Removes the objects; a key that does not exist is no error. */
  remove(keys: readonly string[]): Promise<void>;
}

export interface StoredObject {
  body: Readable;
  contentType: string;
  contentLength: number | null;
}

export const PICTURE_EXTENSIONS = { avif: 'avif', webp: 'webp', jpeg: 'jpg' } as const;
export const PICTURE_CONTENT_TYPES: Record<string, string> = { avif: 'image/avif', webp: 'image/webp', jpg: 'image/jpeg' };

/** A stored variant's key: `<product id>/<32 hex of the upload's SHA-256>-<width>.<avif|webp|jpg>`. */
export const PICTURE_KEY = /^([0-9a-f-]{36})\/([0-9a-f]{32})-(\d{1,5})\.(avif|webp|jpg)$/;
