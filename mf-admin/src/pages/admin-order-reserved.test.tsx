import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { AdminOrder as AdminOrderData } from '@boatshop/contract';
import { todayIso } from '../orders/transfer-amount';
import { api, ORDER_ID, paid, posts, renderPage, setUpAdminOrderPage } from '../test/admin-order-page';

setUpAdminOrderPage();

describe('Admin order page: a reserved order', () => {
  const reserved: AdminOrderData = {
    ...paid,
    status: 'reserved',
    totalCents: 289_000_000,
    itemCount: 1,
    paidAt: null,
    items: [
      {
        productId: 'p64',
        name: 'Belmare 64 Sport',
        thumbnailUrl: '/api/images/belmare-64-sport.svg',
        unitPriceCents: 289_000_000,
        quantity: 1,
      },
    ],
    payments: [
      {
        id: 'pay1',
        method: 'card',
        amountCents: 28_900_000,
        providerReference: 'pi_dep',
        status: 'succeeded',
        createdAt: '2026-11-22T10:00:00.000Z',
        confirmedAt: '2026-11-22T10:00:05.000Z',
        receivedOn: null,
      },
    ],
    events: [
      {
        id: 'e1',
        fromStatus: null,
        toStatus: 'pending',
        at: '2026-11-22T10:00:00.000Z',
        actor: { type: 'shopper', id: 'u1', name: 'Sandy Shopper' },
        amountCents: null,
        note: null,
      },
      {
        id: 'e2',
        fromStatus: 'pending',
        toStatus: 'reserved',
        at: '2026-11-22T10:00:05.000Z',
        actor: { type: 'provider', id: null, name: null },
        amountCents: 28_900_000,
        note: 'Deposit paid',
      },
    ],
    refundableCents: 28_900_000,
    allowedActions: ['record_transfer', 'cancel'],
    balanceDueCents: 260_100_000,
    overdue: true,
    paymentReference: 'RF18539007547034',
    balanceDueOn: '2026-12-06',
    depositCents: 28_900_000,
  };
  const paidInFull: AdminOrderData = {
    ...reserved,
    status: 'paid',
    overdue: false,
    balanceDueCents: 0,
    allowedActions: ['ship', 'cancel', 'refund'],
    payments: [
      ...reserved.payments,
      {
        id: 'pay2',
        method: 'bank_transfer',
        amountCents: 260_100_000,
        providerReference: 'BANK-0001',
        status: 'succeeded',
        createdAt: '2026-11-30T09:00:00.000Z',
        confirmedAt: '2026-11-30T09:00:00.000Z',
        receivedOn: '2026-11-20',
      },
    ],
  };
  const fact = (term: string) => screen.getByText(term, { selector: 'dt' }).nextElementSibling!.textContent;

  it('shows the RF reference, deposit, balance due, due date and Overdue, and offers Record bank transfer', async () => {
    api.answer = () => ({ status: 200, body: reserved });
    renderPage();

    await screen.findByRole('heading', { name: 'Order 9F3C2A1B' });
    expect(fact('Payment reference')).toBe('RF18539007547034');
    expect(fact('Deposit')).toBe('289.000,00\u00a0€');
    expect(fact('Balance due')).toBe('2.601.000,00\u00a0€');
    expect(fact('Due date')).toBe('06/12/2026 (overdue)');
    expect(screen.getByText('Overdue')).toBeTruthy();
    expect(screen.getAllByText('Reserved').length).toBeGreaterThan(0);
    const actions = within(screen.getByRole('group', { name: 'Order actions' }));
    expect(actions.getAllByRole('button').map((button) => button.textContent)).toEqual(['Record bank transfer', 'Cancel order']);
  });

  it('records the balance by bank transfer after a confirmation naming the order and the amount; the order becomes paid', async () => {
    api.answer = ({ method }) => ({ status: method === 'POST' ? 200 : 200, body: method === 'POST' ? paidInFull : reserved });
    renderPage();

    fireEvent.click(await screen.findByRole('button', { name: 'Record bank transfer' }));
    const dialog = screen.getByRole('dialog', { name: 'Record a bank transfer for order 9F3C2A1B' });
    expect(dialog.textContent).toContain(
      'Order 9F3C2A1B, 2.890.000,00\u00a0€: 2.601.000,00\u00a0€ still due by 06/12/2026, payment reference RF18539007547034',
    );
    const amount = within(dialog).getByLabelText<HTMLInputElement>('Amount received');
    expect(amount.value).toBe('2601000');
    const received = within(dialog).getByLabelText<HTMLInputElement>('Date received');
    expect(received.value).toBe(todayIso());

    // The bank's reference is required; 0 and more than 2 decimals are refused before anything is sent.
    fireEvent.click(within(dialog).getByRole('button', { name: /^Record 2\.601\.000,00\s€$/ }));
    expect(within(dialog).getByRole('alert').textContent).toBe("Enter the bank's reference of the transfer");
    fireEvent.change(within(dialog).getByLabelText('Bank reference'), { target: { value: ' BANK-0001 ' } });
    fireEvent.change(amount, { target: { value: '0' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Record transfer' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('Enter an amount above 0,00 €');
    fireEvent.change(amount, { target: { value: '10.005' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Record transfer' }));
    expect(within(dialog).getByRole('alert').textContent).toBe(
      'Enter the amount in euros, with at most 2 decimals (for example 2601000.00)',
    );
    expect(posts()).toEqual([]);

    fireEvent.change(amount, { target: { value: '2601000.00' } });
    fireEvent.change(received, { target: { value: '2026-11-20' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /^Record 2\.601\.000,00\s€$/ }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(posts()).toEqual([
      {
        method: 'POST',
        url: '/api/admin/bank-transfers',
        body: { reference: 'RF18539007547034', amountCents: 260_100_000, receivedOn: '2026-11-20', bankReference: 'BANK-0001' },
      },
    ]);
    expect(screen.getByText('A bank transfer of 2.601.000,00 € was recorded; order 9F3C2A1B is paid in full.').getAttribute('role')).toBe(
      'status',
    );
    expect(screen.getByText(/2\.601\.000,00\s€ by bank transfer, succeeded/).textContent).toMatch(/, received 20\/11\/2026 · BANK-0001$/);
    expect(screen.queryByText('Overdue')).toBeNull();
  });

  it("shows the API's refusal in the dialog: more than is still due, a reference that matches no order", async () => {
    let attempt = 0;
    api.answer = ({ method }) => {
      if (method !== 'POST') return { status: 200, body: reserved };
      attempt += 1;
      return attempt === 1
        ? { status: 422, body: { error: { code: 'OVERPAYMENT', message: '2.700.000,00 € is more than the 2.601.000,00 € still due.' } } }
        : { status: 404, body: { error: { code: 'UNKNOWN_REFERENCE', message: 'The reference RF18539007547034 matches no order.' } } };
    };
    renderPage();

    fireEvent.click(await screen.findByRole('button', { name: 'Record bank transfer' }));
    const dialog = screen.getByRole('dialog', { name: 'Record a bank transfer for order 9F3C2A1B' });
    fireEvent.change(within(dialog).getByLabelText('Amount received'), { target: { value: '2700000' } });
    fireEvent.change(within(dialog).getByLabelText('Bank reference'), { target: { value: 'BANK-0002' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /^Record 2\.700\.000,00\s€$/ }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('2.700.000,00 € is more than the 2.601.000,00 € still due.');

    fireEvent.click(within(dialog).getByRole('button', { name: /^Record 2\.700\.000,00\s€$/ }));
    await within(dialog).findByText('The reference RF18539007547034 matches no order.');
    expect(screen.getByRole('dialog')).toBeTruthy();
  });

  it('cancels only once the admin chose to refund or keep the deposit and gave a reason', async () => {
    const cancelled: AdminOrderData = { ...reserved, status: 'cancelled', overdue: false, balanceDueCents: 0, allowedActions: [] };
    api.answer = ({ method }) => ({ status: 200, body: method === 'POST' ? cancelled : reserved });
    renderPage();

    fireEvent.click(await screen.findByRole('button', { name: 'Cancel order' }));
    const dialog = screen.getByRole('dialog', { name: 'Cancel order 9F3C2A1B?' });
    expect(dialog.textContent).toContain('289.000,00\u00a0€ deposit paid, 2.601.000,00\u00a0€ still due');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel order' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('Choose whether the deposit is refunded or kept');
    fireEvent.click(within(dialog).getByRole('radio', { name: 'Keep the deposit' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel order' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('Give the reason for cancelling a reserved order');
    expect(posts()).toEqual([]);

    fireEvent.change(within(dialog).getByLabelText('Reason'), { target: { value: 'Balance not paid after reminder' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel order' }));

    await screen.findByText('Order 9F3C2A1B was cancelled; the deposit is kept.');
    expect(posts()).toEqual([
      {
        method: 'POST',
        url: `/api/admin/orders/${ORDER_ID}/cancel`,
        body: { reason: 'Balance not paid after reminder', deposit: 'keep' },
      },
    ]);
  });

  it('refunds the deposit on cancel when chosen', async () => {
    api.answer = ({ method }) => ({
      status: 200,
      body: method === 'POST' ? { ...reserved, status: 'cancelled', allowedActions: [] } : reserved,
    });
    renderPage();

    fireEvent.click(await screen.findByRole('button', { name: 'Cancel order' }));
    const dialog = screen.getByRole('dialog', { name: 'Cancel order 9F3C2A1B?' });
    fireEvent.click(within(dialog).getByRole('radio', { name: /^Refund the deposit/ }));
    fireEvent.change(within(dialog).getByLabelText('Reason'), { target: { value: 'Survey failed' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel order' }));

    await screen.findByText('Order 9F3C2A1B was cancelled; the deposit is refunded.');
    expect(posts()[0]!.body).toEqual({ reason: 'Survey failed', deposit: 'refund' });
  });
});
