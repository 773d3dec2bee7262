import { lookup } from 'mime-types';
import { RELEASE_ID } from './validate';

/**
 * A path a release may hold, relative to it: '/'-separated, no empty, '.' or '..' part and no
 * dotfile (dotfiles are never released), so it never leaves the release it names.
 */
export function isReleasePath(file: string): boolean {
  return (
    file.length > 0 && file.length <= 512 && file.split('/').every((part) => part !== '' && !part.startsWith('.') && !part.includes('\\'))
  );
}

/** `<remote>/<id>/<file>` names a published file only when the id has a release's shape. */
export function isReleaseId(id: string): boolean {
  return RELEASE_ID.test(id);
}

/** The Content-Type a release's file is served with (by extension; unknown: octet-stream). */
export function contentTypeOf(file: string): string {
  const type = lookup(file);
  if (!type) return 'application/octet-stream';
  return /^(text\/|application\/(javascript|json))/.test(type) ? `${type}; charset=utf-8` : type;
}
