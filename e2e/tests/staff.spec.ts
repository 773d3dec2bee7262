import { signInAs } from '../helpers/session';
import { expect, test } from '../support/fixtures';
import { payForAnOrder } from '../support/paid-order';

// Staff roles and their accountability: what an editor may not do, refused by the API whatever a
// page offers, and the audit log naming who did what to which order, refused attempts included.

const euro = new Intl.NumberFormat('de-DE', { style: 'currency', currency: 'EUR' });

test.describe('staff roles and the audit log', () => {
  test.use({ role: 'shopper' });

  test('an editor is refused a refund even through the API; the owner refunds; the audit log shows both with who and how much', async ({
    page,
    browser,
    signedInState,
  }) => {
    const { orderId } = await payForAnOrder(page);
    const ref = orderId.slice(0, 8).toUpperCase();

    // The editor's admin area is the catalogue: no orders in it, and the API refuses a refund.
    const editorContext = await browser.newContext();
    const editor = await editorContext.newPage();
    await editor.goto('/');
    await signInAs(editor, 'editor');
    await editor.goto('/admin');
    const editorNav = editor.getByRole('navigation', { name: 'Dashboard' });
    await expect(editorNav.getByRole('link', { name: 'Products' })).toBeVisible();
    await expect(editorNav.getByRole('link', { name: 'Orders' })).toHaveCount(0);
    const csrf = (await editorContext.cookies()).find((cookie) => cookie.name === 'csrf')!.value;
    const refused = await editor.request.post(`/api/admin/orders/${orderId}/refund`, {
      data: { amountCents: 1_000, idempotencyKey: `editor-${orderId}` },
      headers: { 'x-csrf-token': csrf },
    });
    expect(refused.status()).toBe(403);
    await editorContext.close();

    // The owner refunds 10,00 € from the order's page.
    const ownerContext = await browser.newContext({ storageState: await signedInState('admin') });
    const owner = await ownerContext.newPage();
    await owner.goto(`/admin/orders/${orderId}`);
    await owner.getByRole('button', { name: 'Refund', exact: true }).click();
    const dialog = owner.getByRole('dialog', { name: `Refund order ${ref}` });
    await dialog.getByLabel('Amount to refund').fill('10');
    await dialog.getByRole('button', { name: `Refund ${euro.format(10)}` }).click();
    await expect(owner.getByRole('status').filter({ hasText: `${euro.format(10)} of order ${ref} was refunded.` })).toBeVisible();

    // The audit log, filtered to refunds: the owner's with the amount, the editor's refused.
    await owner.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Audit log' }).click();
    await expect(owner.getByRole('heading', { level: 1, name: 'Audit log' })).toBeVisible();
    const filter = owner.getByRole('form', { name: 'Filter the audit log' });
    await filter.getByLabel('Action', { exact: true }).fill('/refund');
    await filter.getByRole('button', { name: 'Filter' }).click();
    const log = owner.getByRole('region', { name: 'Audit log' });
    const rowsOf = (email: string) => log.getByRole('row').filter({ hasText: email }).filter({ hasText: orderId });
    await expect(rowsOf('admin@example.com').first()).toContainText('"amountCents":1000');
    await expect(rowsOf('admin@example.com').first()).toContainText('owner');
    await expect(rowsOf('editor@example.com').first()).toContainText('403');
    await expect(rowsOf('editor@example.com').first()).toContainText('editor');
    await ownerContext.close();
  });
});
