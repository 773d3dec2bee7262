import net from 'node:net';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { StoredMessage } from './mail-store.js';
import { startSmtpServer, type RunningSmtpServer } from './smtp-server.js';

describe('local SMTP server and dev mailbox', () => {
  let mail: RunningSmtpServer;
  let transport: nodemailer.Transporter;

  beforeAll(async () => {
    mail = await startSmtpServer({ port: 0, mailboxPort: 0, capacity: 3 });
    // Exactly what the API does with its SMTP_URL: nodemailer sees no STARTTLS offered and sends in plain text.
    transport = nodemailer.createTransport(mail.url);
  });

  afterAll(async () => {
    transport.close();
    await mail.close();
  });

  beforeEach(async () => {
    await fetch(`${mail.mailboxUrl}/api/messages`, { method: 'DELETE' });
  });

  async function messagesFor(to?: string): Promise<StoredMessage[]> {
    const query = to ? `?to=${encodeURIComponent(to)}` : '';
    const response = await fetch(`${mail.mailboxUrl}/api/messages${query}`);
    expect(response.status).toBe(200);
    return ((await response.json()) as { messages: StoredMessage[] }).messages;
  }

  function sendReset(to: string, subject = 'Reset your password') {
    return transport.sendMail({
      from: 'Boat shop <no-reply@boatshop.example>',
      to,
      subject,
      text: 'Open http://localhost:3000/password-reset/confirm?token=abc to choose a new password.',
      html: '<p><a href="http://localhost:3000/password-reset/confirm?token=abc">Choose a new password</a></p>',
    });
  }

  it('stores a message sent with nodemailer and serves it parsed at /api/messages', async () => {
    const info = await sendReset('grace.sailor@example.com');
    expect(info.accepted).toEqual(['grace.sailor@example.com']);

    const [message, ...others] = await messagesFor('grace.sailor@example.com');
    expect(others).toEqual([]);
    expect(message).toMatchObject({
      to: ['grace.sailor@example.com'],
      from: 'Boat shop <no-reply@boatshop.example>',
      subject: 'Reset your password',
      text: expect.stringContaining('password-reset/confirm?token=abc'),
      html: expect.stringContaining('<a href="http://localhost:3000/password-reset/confirm?token=abc">'),
    });
    expect(Number.isNaN(Date.parse(message?.date ?? ''))).toBe(false);
  });

  it('keeps the List-Unsubscribe headers a mail client offers its unsubscribe button from', async () => {
    await transport.sendMail({
      from: 'Boat shop <no-reply@boatshop.example>',
      to: 'alert.reader@example.com',
      subject: 'New boats',
      text: 'One new boat.',
      headers: {
        'List-Unsubscribe': '<http://localhost:3000/api/unsubscribe?token=t>',
        'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      },
    });
    const [message] = await messagesFor('alert.reader@example.com');
    expect(message!.listHeaders).toEqual({
      'list-unsubscribe': '<http://localhost:3000/api/unsubscribe?token=t>',
      'list-unsubscribe-post': 'List-Unsubscribe=One-Click',
    });
    await sendReset('no.list@example.com');
    const [plain] = await messagesFor('no.list@example.com');
    expect(plain!.listHeaders).toEqual({});
  });

  it("keeps each message's Message-ID, so a message sent twice shows as two copies of one", async () => {
    for (let copy = 0; copy < 2; copy++) {
      await transport.sendMail({
        from: 'shop@boatshop.example',
        to: 'sam.skipper@example.com',
        subject: 'Paid',
        text: 'x',
        messageId: '<outbox-1@boatshop>',
      });
    }
    await sendReset('sam.skipper@example.com');
    const ids = (await messagesFor('sam.skipper@example.com')).map((m) => m.messageId);
    expect(ids.filter((id) => id === '<outbox-1@boatshop>')).toHaveLength(2);
    expect(ids[0]).toMatch(/^<.+@.+>$/);
  });

  it('keeps serving after a client resets its connection mid-session', async () => {
    const { port } = new URL(mail.url);
    const socket = net.connect(Number(port), '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('data', () => resolve()));
    socket.write('EHLO soak\r\nMAIL FROM:<a@example.com>\r\n');
    await new Promise((resolve) => setTimeout(resolve, 100));
    socket.resetAndDestroy();
    await new Promise((resolve) => setTimeout(resolve, 200));
    await sendReset('after-reset@example.com');
    expect(await messagesFor('after-reset@example.com')).toHaveLength(1);
  });

  it('filters by recipient ignoring case, lists newest first and includes Bcc recipients', async () => {
    await sendReset('grace.sailor@example.com', 'first');
    await transport.sendMail({
      from: 'shop@boatshop.example',
      to: 'sam.skipper@example.com',
      bcc: 'Grace.Sailor@example.com',
      subject: 'second',
      text: 'hi',
    });

    expect((await messagesFor('GRACE.SAILOR@example.com')).map((m) => m.subject)).toEqual(['second', 'first']);
    expect((await messagesFor('sam.skipper@example.com')).map((m) => m.subject)).toEqual(['second']);
    expect(await messagesFor('nobody@example.com')).toEqual([]);
  });

  it('keeps only the newest messages up to its capacity', async () => {
    for (const subject of ['1', '2', '3', '4']) await sendReset('sam.skipper@example.com', subject);
    expect((await messagesFor()).map((m) => m.subject)).toEqual(['4', '3', '2']);
  });

  it('clears the mailbox on DELETE /api/messages', async () => {
    await sendReset('sam.skipper@example.com');
    const response = await fetch(`${mail.mailboxUrl}/api/messages`, { method: 'DELETE' });
    expect(response.status).toBe(204);
    expect(await messagesFor()).toEqual([]);
  });

  it('shows an HTML list that opens each message with its text and its HTML in a sandboxed frame', async () => {
    await sendReset('grace.sailor@example.com', 'Reset <your> password');
    const list = await (await fetch(`${mail.mailboxUrl}/`)).text();
    expect(list).toContain('<h1>Dev mailbox</h1>');
    expect(list).toContain('Reset &lt;your&gt; password');
    const href = /<a href="(\/messages\/[^"]+)">/.exec(list)?.[1];
    expect(href).toBeDefined();

    const page = await (await fetch(`${mail.mailboxUrl}${href}`)).text();
    expect(page).toContain('<dd>grace.sailor@example.com</dd>');
    expect(page).toMatch(
      /<iframe title="HTML body" sandbox="[^"]*" srcdoc="[^"]*&lt;a href=&quot;http:\/\/localhost:3000\/password-reset\/confirm\?token=abc&quot;&gt;/,
    );
    expect(page).not.toMatch(/sandbox="[^"]*allow-scripts/);
    expect(page).toContain('<a href="http://localhost:3000/password-reset/confirm?token=abc">');
  });

  it('answers 404 for an unknown message page', async () => {
    expect((await fetch(`${mail.mailboxUrl}/messages/unknown`)).status).toBe(404);
  });
});
