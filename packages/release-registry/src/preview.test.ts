import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { PREVIEW_SECRET_FILE, PREVIEW_TTL_MS, previewCookieValue, previewSecret, verifyPreviewCookie } from './preview';
import { removeTemporaryFolders, tempStore } from './test-helpers';

afterAll(removeTemporaryFolders);

const SECRET = 's'.repeat(64);
const preview = { environment: 'production', remote: 'mf-catalog', release: '0.2.0-0123456789ab' };

it('a signed preview cookie is honoured; forged, altered, expired or another environment are not', () => {
  const now = 1_800_000_000_000;
  const value = previewCookieValue(SECRET, preview, now);
  expect(verifyPreviewCookie(SECRET, value, 'production', now + 1000)).toEqual(preview);

  expect(verifyPreviewCookie('t'.repeat(64), value, 'production', now)).toBeNull();
  expect(verifyPreviewCookie(null, value, 'production', now)).toBeNull();
  expect(verifyPreviewCookie(SECRET, value, 'staging', now)).toBeNull();
  expect(verifyPreviewCookie(SECRET, value, 'production', now + PREVIEW_TTL_MS + 1)).toBeNull();
  const [, release, env, expiry, mac] = value.split('~');
  for (const altered of [
    `mf-admin~${release}~${env}~${expiry}~${mac}`,
    `mf-catalog~0.2.1-0123456789ab~${env}~${expiry}~${mac}`,
    `mf-catalog~${release}~${env}~${Number(expiry) + 3_600_000}~${mac}`,
    `mf-catalog~${release}~${env}~${expiry}~${'A'.repeat(43)}`,
    `mf-catalog~${release}~${env}~${expiry}`,
    `${value}~more`,
    '',
    'x'.repeat(400),
  ]) {
    expect(verifyPreviewCookie(SECRET, altered, 'production', now), altered).toBeNull();
  }
  // Signed, but not a release a shell could serve: refused all the same.
  const odd = previewCookieValue(SECRET, { ...preview, release: '../../etc' }, now);
  expect(verifyPreviewCookie(SECRET, odd, 'production', now)).toBeNull();
});

it('the secret: REMOTES_PREVIEW_SECRET, else a file only the CLI creates (0600) and every reader shares', async () => {
  const store = await tempStore();
  expect(await previewSecret(store.root, {})).toBeNull();
  const created = await previewSecret(store.root, {}, true);
  expect(created).toMatch(/^[0-9a-f]{64}$/);
  expect((await stat(join(store.root, PREVIEW_SECRET_FILE))).mode & 0o777).toBe(0o600);
  expect(await previewSecret(store.root, {})).toBe(created);
  expect(await previewSecret(store.root, {}, true)).toBe(created);
  expect((await readFile(join(store.root, PREVIEW_SECRET_FILE), 'utf8')).trim()).toBe(created);
  expect(await previewSecret(store.root, { REMOTES_PREVIEW_SECRET: 'e'.repeat(32) })).toBe('e'.repeat(32));
  await expect(previewSecret(store.root, { REMOTES_PREVIEW_SECRET: 'short' })).rejects.toThrow(/at least 32/);
});
