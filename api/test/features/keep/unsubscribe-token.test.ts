import { describe, expect, it } from 'vitest';
import { unsubscribeToken, verifyUnsubscribeToken } from '../../../src/features/keep/unsubscribe-token.js';

const SECRET = 'a-test-secret-that-is-long-enough-for-alerts';
const ID = '8ea7ebbc-0d69-49ce-b106-8675c0129c8a';
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

describe('the unsubscribe token', () => {
  it('names its saved search when signed with the secret', () => {
    expect(verifyUnsubscribeToken(SECRET, unsubscribeToken(SECRET, ID))).toBe(ID);
    expect(verifyUnsubscribeToken('another-secret-that-is-long-enough-too', unsubscribeToken(SECRET, ID))).toBeNull();
  });

  it('refuses another spelling of the same signature (base64url ignores the last character’s spare bits)', () => {
    const token = unsubscribeToken(SECRET, ID);
    const [id, mac] = token.split('.') as [string, string];
    const bytes = Buffer.from(mac, 'base64url');
    const respellings = [...ALPHABET]
      .map((c) => mac.slice(0, -1) + c)
      .filter((other) => other !== mac && Buffer.from(other, 'base64url').equals(bytes));
    expect(respellings.length).toBeGreaterThan(0);
    for (const other of respellings) expect(verifyUnsubscribeToken(SECRET, `${id}.${other}`)).toBeNull();
  });
});
