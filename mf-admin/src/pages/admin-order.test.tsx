import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { AdminOrder as AdminOrderData } from '@boatshop/contract';
import { signInAs } from '../test/staff-session';
import { clearAdminOrder } from '../orders/admin-orders';
import { api, ORDER_ID, paid, posts, renderPage, setUpAdminOrderPage } from '../test/admin-order-page';

setUpAdminOrderPage();

describe('Admin order page', () => {
  it('offers only the actions the role allows: a sales person ships, cancels and refunds; an accountant none of these', async () => {
    api.answer = () => ({ status: 200, body: paid });
    signInAs('sales');
    renderPage();
    const group = await screen.findByRole('group', { name: 'Order actions' });
    expect(
      within(group)
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['Mark shipped', 'Cancel order', 'Refund']);
    cleanup();
    signInAs('accountant');
    renderPage();
    const readOnly = await screen.findByRole('group', { name: 'Order actions' });
    expect(within(readOnly).queryAllByRole('button')).toEqual([]);
  });

  it('shows items with thumbnails, addresses, payments, the timeline oldest first, and only the allowed actions', async () => {
    api.answer = () => ({ status: 200, body: paid });
    const { container } = renderPage();

    expect(await screen.findByRole('heading', { name: 'Order 9F3C2A1B' })).toBeTruthy();
    expect(api.calls[0]).toMatchObject({ method: 'GET', url: `/api/admin/orders/${ORDER_ID}` });
    const items = within(screen.getByRole('region', { name: 'Items' }));
    const rows = items.getAllByRole('row').slice(1);
    expect(rows.map((row) => [...row.children].slice(1).map((cell) => cell.textContent))).toEqual([
      ['Ketch 40', '9.500,00\u00a0€', '2', '19.000,00\u00a0€'],
      ['Dinghy', '1.000,00\u00a0€', '1', '1.000,00\u00a0€'],
    ]);
    expect(container.querySelector('img')!.getAttribute('src')).toBe('/api/images/ketch.svg');
    expect(screen.getByText(/2 Office Rd/)).toBeTruthy();
    expect(screen.getByText(/20\.000,00\s€ by card, succeeded/).textContent).toContain('pi_123');
    const timeline = screen.getAllByRole('listitem').filter((item) => item.closest('ol'));
    expect(timeline.map((item) => item.textContent)).toEqual([
      expect.stringMatching(/^22\/11\/2026 \d\d:\d\d Awaiting payment · by Sandy Shopper \(customer\)$/),
      expect.stringMatching(/^22\/11\/2026 \d\d:\d\d Awaiting payment → Paid · 20\.000,00\s€ · by payment provider$/),
    ]);
    const actions = within(screen.getByRole('group', { name: 'Order actions' }));
    expect(actions.getAllByRole('button').map((button) => button.textContent)).toEqual(['Mark shipped', 'Cancel order', 'Refund']);
  });

  it('marks the order shipped with carrier and tracking number after a confirmation naming the order and the amount', async () => {
    const shipped: AdminOrderData = {
      ...paid,
      status: 'shipped',
      carrier: 'DHL',
      trackingNumber: 'JJD0001',
      allowedActions: ['deliver', 'refund'],
    };
    api.answer = ({ method }) => ({ status: 200, body: method === 'POST' ? shipped : paid });
    renderPage();

    fireEvent.click(await screen.findByRole('button', { name: 'Mark shipped' }));
    const dialog = screen.getByRole('dialog', { name: 'Mark order 9F3C2A1B shipped?' });
    expect(dialog.textContent).toContain('Order 9F3C2A1B, 20.000,00\u00a0€');
    fireEvent.change(within(dialog).getByLabelText('Carrier (optional)'), { target: { value: ' DHL ' } });
    fireEvent.change(within(dialog).getByLabelText('Tracking number (optional)'), { target: { value: 'JJD0001' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Mark shipped' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(posts()).toEqual([
      { method: 'POST', url: `/api/admin/orders/${ORDER_ID}/ship`, body: { carrier: 'DHL', trackingNumber: 'JJD0001' } },
    ]);
    expect(screen.getByText('Order 9F3C2A1B was marked shipped.').getAttribute('role')).toBe('status');
    expect(screen.getByText('Carrier: DHL, tracking number: JJD0001')).toBeTruthy();
    expect(
      within(screen.getByRole('group', { name: 'Order actions' }))
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['Mark delivered', 'Refund']);
  });

  it('marks a shipped order delivered, and cancels a paid one with its reason, each after its confirmation', async () => {
    const shipped: AdminOrderData = { ...paid, status: 'shipped', allowedActions: ['deliver', 'refund'] };
    const delivered: AdminOrderData = { ...shipped, status: 'delivered', allowedActions: ['refund'] };
    api.answer = ({ method }) => ({ status: 200, body: method === 'POST' ? delivered : shipped });
    renderPage();

    fireEvent.click(await screen.findByRole('button', { name: 'Mark delivered' }));
    const deliver = screen.getByRole('dialog', { name: 'Mark order 9F3C2A1B delivered?' });
    expect(deliver.textContent).toContain('Order 9F3C2A1B, 20.000,00\u00a0€, has reached Sandy Shopper.');
    fireEvent.click(within(deliver).getByRole('button', { name: 'Mark delivered' }));
    await screen.findByText('Order 9F3C2A1B was marked delivered.');
    expect(posts()).toEqual([{ method: 'POST', url: `/api/admin/orders/${ORDER_ID}/deliver`, body: {} }]);
    expect(screen.getAllByText('Delivered').length).toBeGreaterThan(0);

    cleanup();
    clearAdminOrder();
    api.calls = [];
    const cancelled: AdminOrderData = {
      ...paid,
      status: 'cancelled',
      refundedCents: paid.totalCents,
      refundableCents: 0,
      allowedActions: [],
    };
    api.answer = ({ method }) => ({ status: 200, body: method === 'POST' ? cancelled : paid });
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel order' }));
    const cancel = screen.getByRole('dialog', { name: 'Cancel order 9F3C2A1B?' });
    fireEvent.change(within(cancel).getByLabelText('Reason (optional)'), { target: { value: 'Customer changed their mind' } });
    fireEvent.click(within(cancel).getByRole('button', { name: 'Cancel order' }));
    await screen.findByText('Order 9F3C2A1B was cancelled.');
    expect(posts()).toEqual([
      { method: 'POST', url: `/api/admin/orders/${ORDER_ID}/cancel`, body: { reason: 'Customer changed their mind' } },
    ]);
    expect(screen.getByText('No action is possible in this state (Cancelled).')).toBeTruthy();
  });

  it('does nothing when the admin backs out of a confirmation', async () => {
    api.answer = () => ({ status: 200, body: paid });
    renderPage();

    fireEvent.click(await screen.findByRole('button', { name: 'Cancel order' }));
    const dialog = screen.getByRole('dialog', { name: 'Cancel order 9F3C2A1B?' });
    expect(dialog.textContent).toContain('the 20.000,00\u00a0€ paid is refunded in full');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Keep order' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(posts()).toEqual([]);
  });

  it('says in the dialog why a refused action was refused, and shows the order as it now stands', async () => {
    const shippedMeanwhile: AdminOrderData = { ...paid, status: 'shipped', allowedActions: ['deliver', 'refund'] };
    let gets = 0;
    api.answer = ({ method }) => {
      if (method === 'POST')
        return { status: 409, body: { error: { code: 'INVALID_TRANSITION', message: 'The order is shipped; it cannot be cancelled.' } } };
      gets += 1;
      return { status: 200, body: gets === 1 ? paid : shippedMeanwhile };
    };
    renderPage();

    fireEvent.click(await screen.findByRole('button', { name: 'Cancel order' }));
    const dialog = screen.getByRole('dialog', { name: 'Cancel order 9F3C2A1B?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel order' }));

    expect((await within(dialog).findByRole('alert')).textContent).toBe('The order is shipped; it cannot be cancelled.');
    expect(posts()).toEqual([{ method: 'POST', url: `/api/admin/orders/${ORDER_ID}/cancel`, body: {} }]);
    await waitFor(() => expect(screen.getAllByText('Shipped').length).toBeGreaterThan(0));
  });

  it('refunds part of the order: the amount in euros by the price rules, checked against what can still be refunded', async () => {
    const refunded: AdminOrderData = { ...paid, status: 'partially_refunded', refundedCents: 100_050, refundableCents: 1_899_950 };
    api.answer = ({ method }) => ({ status: 200, body: method === 'POST' ? refunded : paid });
    renderPage();

    fireEvent.click(await screen.findByRole('button', { name: 'Refund' }));
    const dialog = screen.getByRole('dialog', { name: 'Refund order 9F3C2A1B' });
    expect(dialog.textContent).toContain('up to 20.000,00\u00a0€ can be refunded');
    const amount = within(dialog).getByLabelText('Amount to refund') as HTMLInputElement;
    expect(amount.value).toBe('20000');

    fireEvent.change(amount, { target: { value: '20000.01' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Refund' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('At most 20.000,00\u00a0€ can be refunded');

    fireEvent.change(amount, { target: { value: '10.005' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Refund' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('Enter the amount in euros, with at most 2 decimals (for example 1000.50)');

    fireEvent.change(amount, { target: { value: '0' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Refund' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('Enter an amount above 0,00 €');
    expect(posts()).toEqual([]);

    fireEvent.change(amount, { target: { value: '1000.50' } });
    fireEvent.change(within(dialog).getByLabelText('Reason (optional)'), { target: { value: 'Scratched hull' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /^Refund 1\.000,50\s€$/ }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(posts()).toEqual([
      {
        method: 'POST',
        url: `/api/admin/orders/${ORDER_ID}/refund`,
        body: { amountCents: 100_050, reason: 'Scratched hull', idempotencyKey: expect.stringMatching(/^refund-[0-9a-f-]{36}$/) },
      },
    ]);
    expect(screen.getByText('1.000,50 € of order 9F3C2A1B was refunded.')).toBeTruthy();
  });

  it("retries a refund whose answer was lost with the same idempotency key, and shows the API's message", async () => {
    let attempt = 0;
    api.answer = ({ method }) => {
      if (method !== 'POST') return { status: 200, body: paid };
      attempt += 1;
      return attempt === 1
        ? { status: 502, body: { error: { code: 'PAYMENT_PROVIDER_UNAVAILABLE', message: 'The payment provider did not answer.' } } }
        : { status: 422, body: { error: { code: 'REFUND_TOO_LARGE', message: 'At most 0,00 € can be refunded.' } } };
    };
    renderPage();

    fireEvent.click(await screen.findByRole('button', { name: 'Refund' }));
    const dialog = screen.getByRole('dialog', { name: 'Refund order 9F3C2A1B' });
    fireEvent.click(within(dialog).getByRole('button', { name: /^Refund 20\.000,00\s€$/ }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('The payment provider did not answer.');
    fireEvent.click(within(dialog).getByRole('button', { name: /^Refund 20\.000,00\s€$/ }));
    await within(dialog).findByText('At most 0,00 € can be refunded.');

    const [first, second] = posts() as { body: { idempotencyKey: string } }[];
    expect(second!.body.idempotencyKey).toBe(first!.body.idempotencyKey);
  });

  it('says so when the order does not exist', async () => {
    api.answer = () => ({ status: 404, body: { error: { code: 'NOT_FOUND', message: 'Order not found' } } });
    renderPage();
    expect(await screen.findByRole('heading', { name: 'Order not found' })).toBeTruthy();
  });
});
