import { resolve } from 'node:path';
import { S3Client } from '@aws-sdk/client-s3';
import { RegistryError } from './errors';
import { FileRegistryStore } from './file-store';
import { previewSecret } from './preview';
import { S3RegistryStore } from './s3-store';
import type { RegistryStore } from './types';

type Env = Record<string, string | undefined>;

/** REGISTRY_STORE: `file` (the default: the folder REMOTES_REGISTRY) or `s3` (a bucket, ADR 0083). */
export function registryStoreKind(env: Env): 'file' | 's3' {
  const kind = env.REGISTRY_STORE || 'file';
  if (kind !== 'file' && kind !== 's3') throw new RegistryError('INVALID_INPUT', `REGISTRY_STORE must be "file" or "s3", got "${kind}"`);
  return kind;
}

/**
 * The registry the environment names, or null when it names none (no REMOTES_REGISTRY folder and
 * no `fallbackRoot`, with the file store). With REGISTRY_STORE=s3:
 *   REGISTRY_S3_BUCKET (required), REGISTRY_S3_PREFIX (optional key prefix),
 *   S3_ENDPOINT (an S3-compatible service such as MinIO; unset: AWS itself for the region),
 *   S3_FORCE_PATH_STYLE (true/false; default true with S3_ENDPOINT, false on AWS),
 *   AWS_REGION, AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (unset outside production: the AWS
 *   SDK's default chain and us-east-1). Production (NODE_ENV=production) refuses a missing one.
 */
export function registryStoreFromEnv(env: Env, fallbackRoot?: string): RegistryStore | null {
  if (registryStoreKind(env) === 'file') {
    const root = env.REMOTES_REGISTRY || fallbackRoot;
    return root ? new FileRegistryStore(resolve(root)) : null;
  }
  const production = env.NODE_ENV === 'production';
  const missing = ['REGISTRY_S3_BUCKET', ...(production ? ['AWS_REGION', 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY'] : [])].filter(
    (name) => !env[name],
  );
  if (missing.length > 0) throw new RegistryError('INVALID_INPUT', `REGISTRY_STORE=s3 needs ${missing.join(', ')}`);
  if (Boolean(env.AWS_ACCESS_KEY_ID) !== Boolean(env.AWS_SECRET_ACCESS_KEY)) {
    throw new RegistryError('INVALID_INPUT', 'AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY go together: set both or neither');
  }
  const endpoint = env.S3_ENDPOINT || undefined;
  if (endpoint && !/^https?:\/\/[^/\s]+\/?$/.test(endpoint)) {
    throw new RegistryError('INVALID_INPUT', `S3_ENDPOINT must be an http(s) origin such as http://minio:9000, got "${endpoint}"`);
  }
  const pathStyle = env.S3_FORCE_PATH_STYLE || (endpoint ? 'true' : 'false');
  if (pathStyle !== 'true' && pathStyle !== 'false') {
    throw new RegistryError('INVALID_INPUT', `S3_FORCE_PATH_STYLE must be "true" or "false", got "${pathStyle}"`);
  }
  const prefix = env.REGISTRY_S3_PREFIX ?? '';
  const parts = prefix.replace(/\/$/, '').split('/');
  if (prefix !== '' && !parts.every((part) => /^[A-Za-z0-9._-]{1,64}$/.test(part) && part !== '.' && part !== '..')) {
    throw new RegistryError('INVALID_INPUT', `REGISTRY_S3_PREFIX must be folder names separated by '/', got "${prefix}"`);
  }
  const client = new S3Client({
    region: env.AWS_REGION || 'us-east-1',
    ...(endpoint ? { endpoint } : {}),
    forcePathStyle: pathStyle === 'true',
    ...(env.AWS_ACCESS_KEY_ID ? { credentials: { accessKeyId: env.AWS_ACCESS_KEY_ID, secretAccessKey: env.AWS_SECRET_ACCESS_KEY! } } : {}),
  });
  return new S3RegistryStore({ client, bucket: env.REGISTRY_S3_BUCKET!, prefix });
}

/**
 * The preview secret of this registry: REMOTES_PREVIEW_SECRET, else (file store only) the
 * registry folder's secret file. A bucket keeps no secret: with REGISTRY_STORE=s3 the variable
 * is required wherever a preview is signed or checked (`create`: the CLI's promotion refuses).
 */
export async function previewSecretOf(store: RegistryStore, env: Env, create = false): Promise<string | null> {
  if (store instanceof FileRegistryStore || env.REMOTES_PREVIEW_SECRET) {
    return previewSecret(store instanceof FileRegistryStore ? store.root : '', env, create);
  }
  if (create) {
    throw new RegistryError(
      'INVALID_INPUT',
      'with REGISTRY_STORE=s3 the preview secret comes from REMOTES_PREVIEW_SECRET (at least 32 characters): set it',
    );
  }
  return null;
}
