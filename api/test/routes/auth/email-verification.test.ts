import { startSmtpServer, type RunningSmtpServer, type StoredMessage } from '@boatshop/dev-services';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { hashEmailToken } from '../../../src/features/auth/email-tokens.js';
import { buildTestApp, resetDatabase, type TestApp } from '../../helpers/build-test-app.js';
import { GOOD_PASSWORD, registration, ShopVisitor } from './browser.js';

const SUBJECT = 'Confirm your Boat shop e-mail address';
const PASSWORD_REQUIRED =
  'This account was not opened in this browser. Choose its password to confirm the address: the password set at sign-up stops working and every device signed in to the account is signed out.';
const INVALID_LINK = 'This confirmation link is invalid, expired or already used. Ask for a new one from your account page.';

describe('e-mail verification', () => {
  let app: TestApp;
  let smtp: RunningSmtpServer;

  beforeAll(async () => {
    smtp = await startSmtpServer({ port: 0, mailboxPort: 0 });
    app = await buildTestApp({
      publicUrl: 'http://shop.test',
      mail: { smtpUrl: smtp.url, from: 'Boat shop <no-reply@shop.test>' },
      authRateLimitPerMinute: 0,
    });
  });
  beforeEach(async () => {
    await resetDatabase(app);
    await fetch(`${smtp.mailboxUrl}/api/messages`, { method: 'DELETE' });
  });
  afterAll(async () => {
    await app?.close();
    await smtp?.close();
  });

  async function verificationMails(to: string): Promise<StoredMessage[]> {
    const response = await fetch(`${smtp.mailboxUrl}/api/messages?to=${encodeURIComponent(to)}`);
    const { messages } = (await response.json()) as { messages: StoredMessage[] };
    return messages.filter((message) => message.subject === SUBJECT);
  }

  /** The e-mails go out after the answer: wait for `count` of them to land and return their tokens. */
  async function tokensFromMail(to: string, count: number): Promise<string[]> {
    const messages = await vi.waitFor(
      async () => {
        const found = await verificationMails(to);
        expect(found).toHaveLength(count);
        return found;
      },
      { timeout: 10_000, interval: 50 },
    );
    return messages.map(({ text }) => {
      const link = /http:\/\/shop\.test\/verify-email\?token=([A-Za-z0-9_-]+)/.exec(text);
      expect(link, text).not.toBeNull();
      return link![1]!;
    });
  }

  async function tokenFromMail(to: string): Promise<string> {
    const [token] = await tokensFromMail(to, 1);
    return token!;
  }

  async function signedUp(email = 'sandy@example.com'): Promise<ShopVisitor> {
    const visitor = await ShopVisitor.arrive(app);
    expect((await visitor.post('/api/auth/register', registration({ email }))).statusCode).toBe(201);
    return visitor;
  }

  it('e-mails a single-use link at sign-up, stores only its hash, and the link verifies the address', async () => {
    const visitor = await signedUp();
    expect(await visitor.sessionUser()).toMatchObject({ emailVerified: false });
    const token = await tokenFromMail('sandy@example.com');

    const rows = await app.db.selectFrom('email_verification_tokens').select(['token_hash', 'expires_at']).execute();
    expect(rows).toEqual([{ token_hash: hashEmailToken(token), expires_at: expect.any(Date) }]);
    const ttl = rows[0]!.expires_at.getTime() - Date.now();
    expect(ttl).toBeGreaterThan(23 * 3600_000);
    expect(ttl).toBeLessThanOrEqual(24 * 3600_000);

    // Opened in the registrant's own browser: the session proves the password, the link the mailbox.
    expect((await visitor.post('/api/auth/verify-email', { token })).statusCode).toBe(204);
    expect(await visitor.sessionUser()).toMatchObject({ emailVerified: true });

    const again = await visitor.post('/api/auth/verify-email', { token });
    expect(again.statusCode).toBe(400);
    expect(again.json().error).toEqual({ code: 'VALIDATION', message: INVALID_LINK, details: [INVALID_LINK] });
  });

  it("verifying in the registrant's browser ends the account's other sessions and keeps this one", async () => {
    const visitor = await signedUp();
    const token = await tokenFromMail('sandy@example.com');
    const laptop = await ShopVisitor.arrive(app);
    expect((await laptop.post('/api/auth/login', { email: 'sandy@example.com', password: GOOD_PASSWORD })).statusCode).toBe(200);

    expect((await visitor.post('/api/auth/verify-email', { token })).statusCode).toBe(204);
    expect(await visitor.sessionUser()).toMatchObject({ email: 'sandy@example.com', emailVerified: true });
    expect(await laptop.sessionUser()).toBeNull();
  });

  it("the squatter case: the owner's click asks for a new password; then the squatter's sessions end and their password stops working", async () => {
    // Someone signs up with the owner's address and stays signed in; the link goes to the owner.
    const squatter = await signedUp('owner@example.com');
    const token = await tokenFromMail('owner@example.com');
    const owner = await ShopVisitor.arrive(app);

    // The link alone (no session of the account here) does not verify the squatter's account.
    const asked = await owner.post('/api/auth/verify-email', { token });
    expect(asked.statusCode).toBe(409);
    expect(asked.json().error).toEqual({ code: 'PASSWORD_REQUIRED', message: PASSWORD_REQUIRED });
    expect(await squatter.sessionUser()).toMatchObject({ emailVerified: false });

    // A refused password leaves the link usable.
    const mismatch = await owner.post('/api/auth/verify-email', { token, password: 'owners-own-passphrase', confirmPassword: 'other' });
    expect(mismatch.statusCode).toBe(400);
    const weak = await owner.post('/api/auth/verify-email', { token, password: 'owner@example.com', confirmPassword: 'owner@example.com' });
    expect(weak.statusCode).toBe(400);

    const chosen = { token, password: 'owners-own-passphrase', confirmPassword: 'owners-own-passphrase' };
    expect((await owner.post('/api/auth/verify-email', chosen)).statusCode).toBe(204);
    expect(await squatter.sessionUser()).toBeNull();
    const squatterAgain = await ShopVisitor.arrive(app);
    expect((await squatterAgain.post('/api/auth/login', { email: 'owner@example.com', password: GOOD_PASSWORD })).statusCode).toBe(401);
    const ownerLogin = await owner.post('/api/auth/login', { email: 'owner@example.com', password: 'owners-own-passphrase' });
    expect(ownerLogin.statusCode).toBe(200);
    expect(await owner.sessionUser()).toMatchObject({ email: 'owner@example.com', emailVerified: true });

    // The link worked once.
    expect((await (await ShopVisitor.arrive(app)).post('/api/auth/verify-email', chosen)).statusCode).toBe(400);
  });

  it('a browser signed in to another account is asked for the password too', async () => {
    await signedUp('owner@example.com');
    const token = await tokenFromMail('owner@example.com');
    const someoneElse = await signedUp('someone@example.com');
    const answer = await someoneElse.post('/api/auth/verify-email', { token });
    expect(answer.statusCode).toBe(409);
    expect(answer.json().error.code).toBe('PASSWORD_REQUIRED');
  });

  it('refuses an unknown and an expired link without verifying anything', async () => {
    const visitor = await signedUp();
    const token = await tokenFromMail('sandy@example.com');
    await sql`update email_verification_tokens set expires_at = now() - interval '1 second'`.execute(app.db);

    expect((await visitor.post('/api/auth/verify-email', { token })).statusCode).toBe(400);
    expect((await visitor.post('/api/auth/verify-email', { token: 'made-up' })).statusCode).toBe(400);
    expect((await visitor.post('/api/auth/verify-email', { token: '' })).statusCode).toBe(400);
    expect(await visitor.sessionUser()).toMatchObject({ emailVerified: false });
  });

  it('resends a link to a signed-in, unverified user, three times in 15 minutes at most', async () => {
    const visitor = await signedUp();
    await tokenFromMail('sandy@example.com');

    for (let resend = 1; resend <= 3; resend += 1) {
      const response = await visitor.post('/api/auth/verify-email/resend');
      expect(response.statusCode).toBe(202);
      expect(response.json()).toEqual({ message: 'We have sent you a new link to confirm your e-mail address.' });
    }
    const limited = await visitor.post('/api/auth/verify-email/resend');
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error.code).toBe('RATE_LIMITED');

    // Four different links; the first one used spends the others.
    const tokens = await tokensFromMail('sandy@example.com', 4);
    expect(new Set(tokens).size).toBe(4);
    expect((await visitor.post('/api/auth/verify-email', { token: tokens[3] })).statusCode).toBe(204);
    for (const token of tokens.slice(0, 3)) {
      expect((await visitor.post('/api/auth/verify-email', { token })).statusCode).toBe(400);
    }
  });

  it('answers 401 to a resend without a session and 409 once the address is verified', async () => {
    expect((await (await ShopVisitor.arrive(app)).post('/api/auth/verify-email/resend')).statusCode).toBe(401);

    const visitor = await signedUp();
    await visitor.post('/api/auth/verify-email', { token: await tokenFromMail('sandy@example.com') });
    const response = await visitor.post('/api/auth/verify-email/resend');
    expect(response.statusCode).toBe(409);
    expect(response.json().error).toEqual({ code: 'ALREADY_VERIFIED', message: 'Your e-mail address is already verified.' });
  });
});
