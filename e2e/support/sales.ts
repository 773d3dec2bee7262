import type { Browser, BrowserContext, Page } from '@playwright/test';
import { expect } from './fixtures';
import { shopUrl, stackPort } from './stack';

// What the sales journeys share: the dev mailbox's links and attachments, the csrf cookie, and
// shoppers registered for one journey in a browser context of their own.

interface MailboxMessage {
  subject: string;
  text: string;
  attachments?: { filename: string; content: string }[];
}

async function messagesTo(page: Page, email: string): Promise<MailboxMessage[]> {
  const mailbox = `http://127.0.0.1:${stackPort('dev-mailbox')}/api/messages?to=${encodeURIComponent(email)}`;
  return ((await (await page.request.get(mailbox)).json()) as { messages: MailboxMessage[] }).messages;
}

/** The first link to `path` in the newest mail to `email` with this subject, once it arrived. */
export async function linkInMail(page: Page, email: string, subject: string, path: string): Promise<string> {
  let link = '';
  await expect
    .poll(async () => {
      const mail = (await messagesTo(page, email)).find((message) => message.subject === subject);
      link = mail?.text.match(new RegExp(`https?://\\S+${path}\\S*`))?.[0] ?? '';
      return link;
    })
    .not.toBe('');
  return link;
}

/** The text of the mail's attachment, once the mail arrived (the dev mailbox keeps its bytes in base64). */
export async function attachmentInMail(page: Page, email: string, subject: string, filename: string): Promise<string> {
  let text = '';
  await expect
    .poll(async () => {
      const mail = (await messagesTo(page, email)).find((message) => message.subject === subject);
      const file = mail?.attachments?.find((attachment) => attachment.filename === filename);
      text = file ? Buffer.from(file.content, 'base64').toString('utf8') : '';
      return text;
    })
    .not.toBe('');
  return text;
}

/** The properties of an iCalendar file's first VEVENT, folded lines joined, escaped commas read. */
export function icsEvent(ics: string): Record<string, string> {
  const lines = ics.replace(/\r?\n[ \t]/g, '').split(/\r?\n/);
  expect(lines[0]).toBe('BEGIN:VCALENDAR');
  const start = lines.indexOf('BEGIN:VEVENT');
  const end = lines.indexOf('END:VEVENT');
  expect(end).toBeGreaterThan(start);
  return Object.fromEntries(
    lines.slice(start + 1, end).map((line) => {
      const colon = line.indexOf(':');
      return [line.slice(0, colon).split(';')[0]!, line.slice(colon + 1).replace(/\\,/g, ',')];
    }),
  );
}

/** An iCalendar UTC time ("20261201T090000Z") as an instant. */
export const icsInstant = (icsTime: string) =>
  new Date(icsTime.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, '$1-$2-$3T$4:$5:$6Z'));

/** An iCalendar UTC time on the marina's clock, as the shop labels it (DD/MM/YYYY HH:mm). */
export function onMarinaClock(icsTime: string, timeZone = 'Europe/Paris'): string {
  return new Intl.DateTimeFormat('en-GB', {
    timeZone,
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  })
    .format(icsInstant(icsTime))
    .replace(',', '');
}

export const uniqueEmail = (name: string) => `${name}.${Date.now()}.${Math.floor(Math.random() * 1e6)}@example.com`;

/** The csrf cookie of the browser context as it stands (it is set by the first API answer and renewed at sign-in). */
export async function csrfIn(context: BrowserContext): Promise<string> {
  const token = (await context.cookies()).find((cookie) => cookie.name === 'csrf')?.value ?? '';
  expect(token, 'the API set the csrf cookie').not.toBe('');
  return token;
}

/**
 * A shopper registered (and signed in) for this journey, in a browser context of its own. The
 * registration goes through the context's API client before any page is open, so no page's own
 * session request races it for the csrf cookie.
 */
export async function newShopper(
  browser: Browser,
  displayName: string,
  options: { verify?: boolean } = {},
): Promise<{ context: BrowserContext; page: Page; email: string }> {
  const context = await browser.newContext({ baseURL: shopUrl() });
  await context.request.get('/api/auth/session');
  const email = uniqueEmail(displayName.split(' ')[0]!.toLowerCase());
  const registered = await context.request.post('/api/auth/register', {
    data: { displayName, email, password: 'mainsail-at-dawn', confirmPassword: 'mainsail-at-dawn' },
    headers: { 'x-csrf-token': await csrfIn(context) },
  });
  expect(registered.status(), await registered.text()).toBe(201);
  const page = await context.newPage();
  if (options.verify) {
    await page.goto(await linkInMail(page, email, 'Confirm your Boat shop e-mail address', '/verify-email'));
    await expect(page.getByRole('status')).toHaveText('Your e-mail address is confirmed. Thank you!');
  }
  return { context, page, email };
}

/** The seeded Belmare 64 Sport's id (it lies at Port Vauban, whose calendar is seeded; sea trials allowed). */
export async function belmareId(page: Page): Promise<string> {
  const found = await page.request.get('/api/products', { params: { q: 'Belmare 64 Sport' } });
  return ((await found.json()) as { data: { id: string; name: string }[] }).data.find((p) => p.name === 'Belmare 64 Sport')!.id;
}
