import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { chmod, open, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { KNOWN_REMOTES } from './remotes';
import { RELEASE_ID } from './validate';

/**
 * The operator's preview of a candidate release in the live shell: a cookie that makes the
 * shell's server give THIS browser `<remote>@<release>` instead of the live release or canary,
 * so the promotion's smoke run sees the candidate before any shopper does. It is signed (HMAC
 * with the registry's preview secret) and short-lived, so a shopper cannot set it: without the
 * secret a forged, altered or expired cookie is ignored, and the visitor gets what everyone gets.
 */
export const PREVIEW_COOKIE = 'boatshop_preview';
export const PREVIEW_SECRET_FILE = 'preview-secret';
/** Long enough for a smoke run, short enough that a leaked cookie is soon worthless. */
export const PREVIEW_TTL_MS = 15 * 60_000;

export interface Preview {
  environment: string;
  remote: string;
  release: string;
}

const sign = (secret: string, payload: string) => createHmac('sha256', secret).update(payload).digest('base64url');

/** The cookie value: `<remote>~<release>~<environment>~<expiry ms>~<hmac>`. */
export function previewCookieValue(secret: string, preview: Preview, now = Date.now(), ttlMs = PREVIEW_TTL_MS): string {
  const payload = `${preview.remote}~${preview.release}~${preview.environment}~${now + ttlMs}`;
  return `${payload}~${sign(secret, payload)}`;
}

/** The preview a cookie grants in `environment`, or null: unsigned, altered, expired, another environment. */
export function verifyPreviewCookie(
  secret: string | null,
  value: string | null | undefined,
  environment: string,
  now = Date.now(),
): Preview | null {
  if (!secret || !value || value.length > 300) return null;
  const parts = value.split('~');
  if (parts.length !== 5) return null;
  const [remote, release, env, expiry, mac] = parts as [string, string, string, string, string];
  const expected = Buffer.from(sign(secret, parts.slice(0, 4).join('~')));
  const given = Buffer.from(mac);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  if (env !== environment || !/^\d{1,15}$/.test(expiry) || Number(expiry) < now) return null;
  if (!Object.hasOwn(KNOWN_REMOTES, remote) || !RELEASE_ID.test(release)) return null;
  return { environment: env, remote, release };
}

/**
 * The preview secret: REMOTES_PREVIEW_SECRET (at least 32 characters) when set, else the file
 * `preview-secret` in the registry folder, which only the registry's writers and the shell's
 * replicas read (it is outside releases/, the only part served). `create` (the CLI) makes the
 * file on first use, 32 random bytes, mode 0600; the shell never creates it.
 */
export async function previewSecret(root: string, env: Record<string, string | undefined>, create = false): Promise<string | null> {
  const fromEnv = env.REMOTES_PREVIEW_SECRET;
  if (fromEnv) {
    if (fromEnv.length < 32) throw new Error('REMOTES_PREVIEW_SECRET must be at least 32 characters');
    return fromEnv;
  }
  const file = join(root, PREVIEW_SECRET_FILE);
  const read = async () => (await readFile(file, 'utf8')).trim() || null;
  try {
    return await read();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || !create) return null;
  }
  try {
    const handle = await open(file, 'wx', 0o600);
    await handle.writeFile(`${randomBytes(32).toString('hex')}\n`);
    await handle.close();
    await chmod(file, 0o600);
  } catch (error) {
    // Another operator created it at the same moment: use theirs.
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return read();
}
