import { startSmtpServer, type RunningSmtpServer, type StoredMessage } from '@boatshop/dev-services';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { hashEmailToken } from '../../../src/features/auth/email-tokens.js';
import { buildTestApp, resetDatabase, type TestApp } from '../../helpers/build-test-app.js';
import { GOOD_PASSWORD, registration, ShopVisitor } from './browser.js';

const ACCEPTED = { message: 'If an account exists for this e-mail, we have sent it a link to choose a new password.' };
const INVALID_LINK = 'This reset link is invalid, expired or already used. Ask for a new one.';
const NEW_PASSWORD = 'spinnaker-in-the-wind';

describe('password reset by e-mail', () => {
  let app: TestApp;
  let smtp: RunningSmtpServer;

  beforeAll(async () => {
    smtp = await startSmtpServer({ port: 0, mailboxPort: 0 });
    app = await buildTestApp({
      publicUrl: 'http://shop.test',
      mail: { smtpUrl: smtp.url, from: 'Boat shop <no-reply@shop.test>' },
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

  /** The reset e-mails to an address (sign-up also sends a verification e-mail, which is not counted here). */
  async function inbox(to: string): Promise<StoredMessage[]> {
    const response = await fetch(`${smtp.mailboxUrl}/api/messages?to=${encodeURIComponent(to)}`);
    const { messages } = (await response.json()) as { messages: StoredMessage[] };
    return messages.filter((message) => message.subject === 'Reset your Boat shop password');
  }

  /** The e-mail goes out after the answer, so wait for it to land. */
  async function resetTokenFromMail(to: string): Promise<string> {
    const [message] = await vi.waitFor(
      async () => {
        const messages = await inbox(to);
        expect(messages).toHaveLength(1);
        return messages;
      },
      { timeout: 10_000, interval: 50 },
    );
    expect(message?.subject).toBe('Reset your Boat shop password');
    expect(message?.from).toBe('Boat shop <no-reply@shop.test>');
    const link = /http:\/\/shop\.test\/password-reset\/confirm\?token=([A-Za-z0-9_-]+)/.exec(message?.text ?? '');
    expect(link, message?.text).not.toBeNull();
    return link![1]!;
  }

  async function registered(email = 'sandy@example.com'): Promise<ShopVisitor> {
    const visitor = await ShopVisitor.arrive(app);
    expect((await visitor.post('/api/auth/register', registration({ email }))).statusCode).toBe(201);
    return visitor;
  }

  it('answers 202 with the same body whether or not the e-mail has an account, and mails only the account', async () => {
    await registered();
    const known = await (await ShopVisitor.arrive(app)).post('/api/auth/password-reset', { email: 'Sandy@example.com' });
    const unknown = await (await ShopVisitor.arrive(app)).post('/api/auth/password-reset', { email: 'nobody@example.com' });

    expect(known.statusCode).toBe(202);
    expect(unknown.statusCode).toBe(202);
    expect(known.json()).toEqual(ACCEPTED);
    expect(unknown.body).toBe(known.body);
    await resetTokenFromMail('sandy@example.com');
    expect(await inbox('nobody@example.com')).toEqual([]);
  });

  it('stores only a hash of the token, valid for one hour', async () => {
    await registered();
    await (await ShopVisitor.arrive(app)).post('/api/auth/password-reset', { email: 'sandy@example.com' });
    const token = await resetTokenFromMail('sandy@example.com');

    const rows = await app.db.selectFrom('password_reset_tokens').selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]?.token_hash).toBe(hashEmailToken(token));
    expect(rows[0]?.token_hash).not.toContain(token);
    const lifetime = rows[0]!.expires_at.getTime() - rows[0]!.created_at.getTime();
    expect(lifetime).toBeGreaterThan(59 * 60_000);
    expect(lifetime).toBeLessThanOrEqual(60 * 60_000 + 1000);
  });

  it('sets the new password once per link and signs the user out everywhere else', async () => {
    const signedInElsewhere = await registered();
    await (await ShopVisitor.arrive(app)).post('/api/auth/password-reset', { email: 'sandy@example.com' });
    const token = await resetTokenFromMail('sandy@example.com');

    const visitor = await ShopVisitor.arrive(app);
    const confirmed = await visitor.post('/api/auth/password-reset/confirm', {
      token,
      password: NEW_PASSWORD,
      confirmPassword: NEW_PASSWORD,
    });
    expect(confirmed.statusCode).toBe(204);
    expect(await signedInElsewhere.sessionUser()).toBeNull();

    const oldPassword = await visitor.post('/api/auth/login', { email: 'sandy@example.com', password: GOOD_PASSWORD });
    expect(oldPassword.statusCode).toBe(401);
    const newPassword = await visitor.post('/api/auth/login', { email: 'sandy@example.com', password: NEW_PASSWORD });
    expect(newPassword.statusCode).toBe(200);

    const again = await visitor.post('/api/auth/password-reset/confirm', {
      token,
      password: 'another-fine-pass',
      confirmPassword: 'another-fine-pass',
    });
    expect(again.statusCode).toBe(400);
    expect(again.json().error.details).toEqual([INVALID_LINK]);
  });

  it('keeps the session of a signed-in user who resets from the same browser', async () => {
    const visitor = await registered();
    await visitor.post('/api/auth/password-reset', { email: 'sandy@example.com' });
    const token = await resetTokenFromMail('sandy@example.com');
    await visitor.post('/api/auth/password-reset/confirm', { token, password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD });
    expect((await visitor.sessionUser())?.email).toBe('sandy@example.com');
  });

  it('refuses an expired link', async () => {
    await registered();
    await (await ShopVisitor.arrive(app)).post('/api/auth/password-reset', { email: 'sandy@example.com' });
    const token = await resetTokenFromMail('sandy@example.com');
    await app.db
      .updateTable('password_reset_tokens')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .execute();

    const response = await (
      await ShopVisitor.arrive(app)
    ).post('/api/auth/password-reset/confirm', {
      token,
      password: NEW_PASSWORD,
      confirmPassword: NEW_PASSWORD,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toEqual({ code: 'VALIDATION', message: INVALID_LINK, details: [INVALID_LINK] });
  });

  it('refuses a made-up token', async () => {
    const response = await (
      await ShopVisitor.arrive(app)
    ).post('/api/auth/password-reset/confirm', {
      token: 'made-up-token',
      password: NEW_PASSWORD,
      confirmPassword: NEW_PASSWORD,
    });
    expect(response.json().error.details).toEqual([INVALID_LINK]);
  });

  it('applies the password policy and the confirmation without spending the link', async () => {
    await registered();
    await (await ShopVisitor.arrive(app)).post('/api/auth/password-reset', { email: 'sandy@example.com' });
    const token = await resetTokenFromMail('sandy@example.com');
    const visitor = await ShopVisitor.arrive(app);

    const mismatch = await visitor.post('/api/auth/password-reset/confirm', {
      token,
      password: NEW_PASSWORD,
      confirmPassword: 'something-else',
    });
    expect(mismatch.json().error.details).toEqual(["Passwords don't match!"]);
    const ownEmail = await visitor.post('/api/auth/password-reset/confirm', {
      token,
      password: 'sandy@example.com',
      confirmPassword: 'sandy@example.com',
    });
    expect(ownEmail.json().error.details).toEqual(['Password must not be your e-mail address.']);

    const fine = await visitor.post('/api/auth/password-reset/confirm', { token, password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD });
    expect(fine.statusCode).toBe(204);
  });

  it('sends at most 3 reset e-mails per address in 15 minutes', async () => {
    await registered();
    for (let request = 0; request < 3; request += 1) {
      expect((await (await ShopVisitor.arrive(app)).post('/api/auth/password-reset', { email: 'sandy@example.com' })).statusCode).toBe(202);
    }
    const blocked = await (await ShopVisitor.arrive(app)).post('/api/auth/password-reset', { email: 'sandy@example.com' });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().error.message).toBe('Too many reset requests for this e-mail. Try again in 15 minutes.');
    await vi.waitFor(async () => expect(await inbox('sandy@example.com')).toHaveLength(3), { timeout: 10_000, interval: 50 });
  });

  it('asks for a valid e-mail address', async () => {
    const response = await (await ShopVisitor.arrive(app)).post('/api/auth/password-reset', { email: 'sandy' });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.details).toEqual(['Please enter a valid e-mail address.']);
  });
});
