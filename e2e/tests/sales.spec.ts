import type { APIRequestContext } from '@playwright/test';
import { expect, test } from '../support/fixtures';
import { shopUrl, stackPort } from '../support/stack';

// Sales: a guest asks about a boat on its page, confirms by the e-mailed link, the admin answers
// in the leads inbox, and the guest reads the answer in the account made with that e-mail.

const PASSWORD = 'jib-sheet-at-noon';

function uniqueEmail(name: string): string {
  return `${name}.${Date.now()}.${Math.floor(Math.random() * 1e6)}@example.com`;
}

/** The first link in the newest mail to `email` with this subject, once it arrived. */
async function linkInMail(request: APIRequestContext, email: string, subject: string, path: string): Promise<string> {
  const mailbox = `http://127.0.0.1:${stackPort('dev-mailbox')}/api/messages?to=${encodeURIComponent(email)}`;
  let link = '';
  await expect
    .poll(async () => {
      const { messages } = (await (await request.get(mailbox)).json()) as { messages: { subject: string; text: string }[] };
      const mail = messages.find((message) => message.subject === subject);
      link = mail?.text.match(new RegExp(`https?://\\S+${path}\\S*`))?.[0] ?? '';
      return link;
    })
    .not.toBe('');
  return link;
}

test("a guest's question about the Belmare 64 Sport reaches the shop after the e-mail's link, and the answer waits in the account made with that e-mail", async ({
  page,
  browser,
  signedInState,
}) => {
  // One long journey through three apps and two mailboxes' worth of links.
  test.slow();
  const email = uniqueEmail('gina');
  const found = await page.request.get('/api/products', { params: { q: 'Belmare 64 Sport' } });
  const belmare = ((await found.json()) as { data: { id: string; name: string }[] }).data.find((p) => p.name === 'Belmare 64 Sport')!;

  await page.goto(`/product/${belmare.id}`);
  await page.getByRole('button', { name: 'Ask a question' }).click();
  await page.getByLabel('Your name').fill('Gina Guest');
  await page.getByLabel('Your e-mail').fill(email);
  await page.getByLabel('Your question about the Belmare 64 Sport').fill('Is the teak foredeck original?');
  await page.getByRole('button', { name: 'Send question' }).click();
  await expect(page.getByRole('status')).toContainText('Open its link to confirm your question');

  const confirmLink = await linkInMail(page.request, email, 'Confirm your question about the Belmare 64 Sport', '/enquiries/confirm');
  expect(new URL(confirmLink).origin).toBe(shopUrl());
  await page.goto(confirmLink);
  await expect(page.getByRole('status')).toContainText('your question about the Belmare 64 Sport was sent to the shop');

  // The admin finds it in the leads inbox, notes something internal and answers.
  const adminContext = await browser.newContext({ baseURL: shopUrl(), storageState: await signedInState('admin') });
  const admin = await adminContext.newPage();
  await admin.goto('/admin/leads');
  await expect(admin.getByRole('table', { name: 'Funnel per month' })).toBeVisible();
  await admin.getByLabel('Boat, buyer or e-mail').fill(email);
  await admin.getByRole('button', { name: 'Search' }).click();
  await admin
    .getByRole('row', { name: new RegExp(email.replaceAll('.', '\\.')) })
    .getByRole('link', { name: 'Belmare 64 Sport' })
    .click();
  await expect(admin.getByText('Is the teak foredeck original?')).toBeVisible();
  await admin.getByLabel('New note').fill('Asked about the deck: send the refit invoices');
  await admin.getByRole('button', { name: 'Add note' }).click();
  await expect(admin.getByText('Asked about the deck: send the refit invoices')).toBeVisible();
  await admin.getByLabel('Reply to the buyer').fill('Yes, the teak is original and was refinished in 2025.');
  await admin.getByRole('button', { name: 'Send reply' }).click();
  await expect(admin.getByRole('list', { name: 'Conversation' })).toContainText('refinished in 2025');
  await adminContext.close();

  // The guest signs up with that e-mail, confirms it, and finds the conversation under Messages.
  await page.goto('/registration');
  await page.getByLabel('Full Name').fill('Gina Guest');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Confirm Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(page).toHaveURL(`${shopUrl()}/`);
  await page.goto(await linkInMail(page.request, email, 'Confirm your Boat shop e-mail address', '/verify-email'));
  await expect(page.getByRole('status')).toHaveText('Your e-mail address is confirmed. Thank you!');

  await page.goto('/dashboard');
  await page.getByRole('link', { name: 'Messages' }).click();
  await page.getByRole('link', { name: 'Belmare 64 Sport' }).click();
  const conversation = page.getByRole('list', { name: 'Messages' });
  await expect(conversation).toContainText('Yes, the teak is original and was refinished in 2025.');
  await expect(page.getByText('refit invoices')).toHaveCount(0);
  await page.getByLabel('Your reply').fill('Lovely. Can I see it next week?');
  await page.getByRole('button', { name: 'Send reply' }).click();
  await expect(conversation).toContainText('Can I see it next week?');
});
