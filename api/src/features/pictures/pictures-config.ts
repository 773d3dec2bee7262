import path from 'node:path';
import type { S3Settings } from './s3-storage.js';

export interface PicturesConfig {
  /** local: files under `dir` (the embedded default); s3: an S3-compatible bucket (production) */
  storage: { kind: 'local'; dir: string } | ({ kind: 's3' } & S3Settings);
  /** decoded pixels an upload may have (width × height): more is refused before decoding (decompression bombs) */
  maxPixels: number;
}

/** The settings this file reads, as config.ts's EnvironmentSchema types them. */
export interface PicturesEnvironment {
  PICTURE_STORAGE?: 'local' | 's3' | undefined;
  PICTURES_DIR?: string | undefined;
  S3_ENDPOINT?: string | undefined;
  S3_BUCKET?: string | undefined;
  S3_REGION?: string | undefined;
  S3_ACCESS_KEY_ID?: string | undefined;
  S3_SECRET_ACCESS_KEY?: string | undefined;
  PICTURE_MAX_PIXELS: number;
}

export function loadPicturesConfig(env: PicturesEnvironment, isProduction: boolean, apiRoot: string): PicturesConfig {
  const kind = env.PICTURE_STORAGE ?? (isProduction ? 's3' : 'local');
  const storage: PicturesConfig['storage'] =
    kind === 's3'
      ? {
          kind,
          endpoint: env.S3_ENDPOINT ?? null,
          bucket: env.S3_BUCKET ?? '',
          region: env.S3_REGION ?? 'us-east-1',
          accessKeyId: env.S3_ACCESS_KEY_ID ?? '',
          secretAccessKey: env.S3_SECRET_ACCESS_KEY ?? '',
        }
      : { kind, dir: env.PICTURES_DIR ?? path.join(apiRoot, '.data', 'pictures') };
  return { storage, maxPixels: env.PICTURE_MAX_PIXELS };
}

/**
 * Production keeps pictures in object storage, so every replica serves every picture: the bucket
 * and its credentials must be set (the endpoint too, unless it is AWS's own S3 for the region).
 */
export function picturesProductionProblems(env: NodeJS.ProcessEnv): string[] {
  const kind = env.PICTURE_STORAGE?.trim() || 's3';
  if (kind !== 's3') {
    return ["PICTURE_STORAGE must be s3 in production (pictures on one replica's disk are missing on the others)"];
  }
  return (['S3_BUCKET', 'S3_REGION', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const)
    .filter((key) => !env[key]?.trim())
    .map((key) => `${key} is missing (the object storage of uploaded pictures)`);
}
