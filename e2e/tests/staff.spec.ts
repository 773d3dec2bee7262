import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import pg from 'pg';
import { DEMO_ACCOUNTS, signInAs } from '../helpers/session';
import { expect, test } from '../support/fixtures';
import { payForAnOrder } from '../support/paid-order';
import { REPO_ROOT, shopUrl } from '../support/stack';

// Staff roles and their accountability: what an editor may not do, refused by the API whatever a
// page offers, and the audit log naming who did what to which order, refused attempts included.

const euro = new Intl.NumberFormat('de-DE', { style: 'currency', currency: 'EUR' });
const NO_LOGIN = { cookies: [], origins: [] };

/** `npm run audit:verify -w api` against the stack's database. */
function auditVerify(databaseUrl: string) {
  return spawnSync(process.execPath, ['--import', 'tsx', 'src/scripts/audit-verify.ts'], {
    cwd: join(REPO_ROOT, 'api'),
    env: { ...process.env, DATABASE_URL: databaseUrl, NODE_ENV: 'development', LOG_LEVEL: 'silent' },
    encoding: 'utf8',
  });
}

/** Changes one audit row's details behind the append-only trigger, as an intruder with database access could. */
async function rewriteAuditRow(client: pg.Client, seq: string, details: unknown) {
  await client.query('alter table audit_log disable trigger audit_log_append_only');
  try {
    await client.query('update audit_log set details = $2::jsonb where seq = $1', [seq, JSON.stringify(details)]);
  } finally {
    await client.query('alter table audit_log enable trigger audit_log_append_only');
  }
}

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
    // A context of its own: browser.newContext() would start from the test's stored shopper login,
    // which the editor's sign-in would then end.
    const editorContext = await browser.newContext({ storageState: NO_LOGIN });
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

  test('a refund above the threshold asks the owner for the password again when the sign-in is older than 5 minutes', async ({
    page,
    browser,
  }) => {
    // The journey ages the owner's session in the stack's database: PostgreSQL stacks only.
    const databaseUrl = process.env.BOATSHOP_E2E_STACK_DATABASE_URL;
    test.skip(!databaseUrl, 'needs the stack on PostgreSQL (E2E_DATABASE_URL) to age a session');
    const { orderId } = await payForAnOrder(page);
    const ref = orderId.slice(0, 8).toUpperCase();

    const ownerContext = await browser.newContext({ baseURL: shopUrl(), storageState: NO_LOGIN });
    try {
      const owner = await ownerContext.newPage();
      await owner.goto('/');
      await signInAs(owner, 'admin');
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      try {
        const aged = await client.query(
          `update sessions set created_at = now() - interval '10 minutes', stepped_up_at = null
           where id = (select s.id from sessions s join users u on u.id = s.user_id
                       where u.email = $1 and s.revoked_at is null order by s.created_at desc limit 1)`,
          [DEMO_ACCOUNTS.admin.email],
        );
        expect(aged.rowCount).toBe(1);
      } finally {
        await client.end();
      }

      // 6.000,00 € is above the default threshold (STEP_UP_ABOVE_CENTS, 5.000,00 €).
      await owner.goto(`/admin/orders/${orderId}`);
      await owner.getByRole('button', { name: 'Refund', exact: true }).click();
      const dialog = owner.getByRole('dialog', { name: `Refund order ${ref}` });
      await dialog.getByLabel('Amount to refund').fill('6000');
      await dialog.getByRole('button', { name: `Refund ${euro.format(6000)}` }).click();
      const confirm = owner.getByRole('dialog', { name: 'Confirm it is you' });
      await expect(confirm).toBeVisible();
      await confirm.getByLabel('Password').fill('wrong password');
      await confirm.getByRole('button', { name: 'Confirm' }).click();
      await expect(confirm.getByRole('alert')).toHaveText('That password is wrong.');
      await confirm.getByLabel('Password').fill(DEMO_ACCOUNTS.admin.password);
      await confirm.getByRole('button', { name: 'Confirm' }).click();
      await expect(owner.getByRole('status').filter({ hasText: `${euro.format(6000)} of order ${ref} was refunded.` })).toBeVisible();
      // Refunded once, after the password.
      const order = await owner.request.get(`/api/admin/orders/${orderId}`);
      expect(((await order.json()) as { refundedCents: number }).refundedCents).toBe(600_000);

      // The refund's audit row, edited in the database, breaks the hash chain: the verify command
      // fails naming the row, and holds again once the row is as it was.
      const audit = new pg.Client({ connectionString: databaseUrl });
      await audit.connect();
      try {
        const { rows } = await audit.query<{ seq: string; details: Record<string, unknown> }>(
          `select seq::text, details from audit_log
           where action like '%refund%' and target_id = $1 and coalesce(status, 200) < 400
           order by seq desc limit 1`,
          [orderId],
        );
        expect(JSON.stringify(rows[0]?.details)).toContain('600000');
        const { seq, details } = rows[0]!;
        expect(auditVerify(databaseUrl!).status).toBe(0);
        await rewriteAuditRow(audit, seq, { ...details, note: 'refund of 1,00 €' });
        try {
          const broken = auditVerify(databaseUrl!);
          expect(broken.status).toBe(1);
          expect(broken.stderr).toContain(`audit log broken at row ${seq}:`);
        } finally {
          await rewriteAuditRow(audit, seq, details);
        }
        expect(auditVerify(databaseUrl!).status).toBe(0);
      } finally {
        await audit.end();
      }
    } finally {
      await ownerContext.close();
    }
  });
});
