import { createHmac, timingSafeEqual } from 'node:crypto';
import { isUuid } from '@boatshop/contract';

// An alert e-mail's unsubscribe link names its saved search and carries an HMAC-SHA256 of it under
// SAVED_SEARCH_ALERTS_SECRET: it works without signing in, and nobody can make one for another
// shopper's search. It does not expire, as RFC 8058 expects of a List-Unsubscribe address.

const PURPOSE = 'saved-search-alerts';

function signature(secret: string, savedSearchId: string): Buffer {
  return createHmac('sha256', secret).update(`${PURPOSE}:${savedSearchId}`).digest();
}

export function unsubscribeToken(secret: string, savedSearchId: string): string {
  return `${savedSearchId}.${signature(secret, savedSearchId).toString('base64url')}`;
}

/**
 * The saved search a token names, or null when it was not signed with this secret. The signature
 * is compared as the exact text issued: base64url ignores the last character's spare bits, so a
 * decoded comparison would accept other spellings of the same signature.
 */
export function verifyUnsubscribeToken(secret: string, token: string): string | null {
  const [id, mac, ...rest] = token.split('.');
  if (!id || !mac || rest.length > 0 || !isUuid(id)) return null;
  const given = Buffer.from(mac);
  const expected = Buffer.from(signature(secret, id).toString('base64url'));
  return given.length === expected.length && timingSafeEqual(given, expected) ? id : null;
}
