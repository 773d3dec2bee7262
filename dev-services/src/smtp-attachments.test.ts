import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StoredMessage } from './mail-store.js';
import { startSmtpServer, type RunningSmtpServer } from './smtp-server.js';

// The shop's e-mails carry documents (the invoice of the event), so the dev mailbox keeps a
// message's files: listed in its JSON and on its page, each downloadable byte for byte.

describe('the dev mailbox keeps attachments', () => {
  let mail: RunningSmtpServer;
  let transport: nodemailer.Transporter;

  beforeAll(async () => {
    mail = await startSmtpServer({ port: 0, mailboxPort: 0 });
    transport = nodemailer.createTransport(mail.url);
  });

  afterAll(async () => {
    transport.close();
    await mail.close();
  });

  it('serves the file in /api/messages, lists it on the message page and downloads the same bytes', async () => {
    const pdf = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.from([0, 1, 2, 255, 254, 10, 13]), Buffer.from('%%EOF')]);
    await transport.sendMail({
      from: 'Boat shop <no-reply@boatshop.example>',
      to: 'attach@example.test',
      subject: 'Your invoice',
      text: 'Attached.',
      html: '<p>Attached.</p>',
      attachments: [{ filename: '2026-000001.pdf', contentType: 'application/pdf', content: pdf }],
    });
    const response = await fetch(`${mail.mailboxUrl}/api/messages?to=attach@example.test`);
    const [message] = ((await response.json()) as { messages: StoredMessage[] }).messages;
    expect(message?.attachments).toEqual([
      { filename: '2026-000001.pdf', contentType: 'application/pdf', size: pdf.length, content: pdf.toString('base64') },
    ]);

    const page = await (await fetch(`${mail.mailboxUrl}/messages/${message!.id}`)).text();
    expect(page).toContain('<h2>Attachments</h2>');
    expect(page).toContain(`<a href="/messages/${message!.id}/attachments/0" download="2026-000001.pdf">2026-000001.pdf</a>`);
    const download = await fetch(`${mail.mailboxUrl}/messages/${message!.id}/attachments/0`);
    expect(download.headers.get('content-type')).toBe('application/pdf');
    expect(download.headers.get('content-disposition')).toBe('attachment; filename="2026-000001.pdf"');
    expect(Buffer.compare(Buffer.from(await download.arrayBuffer()), pdf)).toBe(0);
    expect((await fetch(`${mail.mailboxUrl}/messages/${message!.id}/attachments/1`)).status).toBe(404);
  });

  it('stores an empty list for a message without files', async () => {
    await transport.sendMail({ from: 'a@example.test', to: 'plain@example.test', subject: 'Plain', text: 'No files.' });
    const response = await fetch(`${mail.mailboxUrl}/api/messages?to=plain@example.test`);
    expect(((await response.json()) as { messages: StoredMessage[] }).messages[0]?.attachments).toEqual([]);
  });
});
