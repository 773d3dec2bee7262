import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AdminOrder as AdminOrderData } from '@boatshop/contract';
import '../test/dialog-polyfill';
import { signInAs } from '../test/staff-session';
import { clearAdminOrder } from '../orders/admin-orders';
import { todayIso } from '../orders/transfer-amount';
import AdminOrder from './admin-order';

const ORDER_ID = '9f3c2a1b-1111-4111-8111-111111111111';
const address = { line1: '1 Quay', city: 'Cork', state: 'CO', postal_code: 'T12', country: 'IE' };

const paid: AdminOrderData = {
  id: ORDER_ID,
  createdAt: '2026-11-22T10:00:00.000Z',
  status: 'paid',
  totalCents: 2_000_000,
  refundedCents: 0,
  itemCount: 2,
  customer: { id: 'u1', email: 'sandy@example.com', displayName: 'Sandy Shopper' },
  paidAt: '2026-11-22T10:00:05.000Z',
  items: [
    { productId: 'p1', name: 'Ketch 40', thumbnailUrl: '/api/images/ketch.svg', unitPriceCents: 950_000, quantity: 2 },
    { productId: null, name: 'Dinghy', thumbnailUrl: '/api/images/dinghy.svg', unitPriceCents: 100_000, quantity: 1 },
  ],
  shipping: { name: 'Sandy Shopper', address },
  billing: { name: 'Sandy Billing', address: { ...address, line1: '2 Office Rd' } },
  payments: [
    {
      id: 'pay1',
      method: 'card',
      amountCents: 2_000_000,
      providerReference: 'pi_123',
      status: 'succeeded',
      createdAt: '2026-11-22T10:00:00.000Z',
      confirmedAt: '2026-11-22T10:00:05.000Z',
      receivedOn: null,
    },
  ],
  refunds: [],
  events: [
    {
      id: 'e2',
      fromStatus: 'pending',
      toStatus: 'paid',
      at: '2026-11-22T10:00:05.000Z',
      actor: { type: 'provider', id: null, name: null },
      amountCents: 2_000_000,
      note: null,
    },
    {
      id: 'e1',
      fromStatus: null,
      toStatus: 'pending',
      at: '2026-11-22T10:00:00.000Z',
      actor: { type: 'shopper', id: 'u1', name: 'Sandy Shopper' },
      amountCents: null,
      note: null,
    },
  ],
  refundableCents: 2_000_000,
  allowedActions: ['ship', 'cancel', 'refund'],
  carrier: null,
  trackingNumber: null,
  balanceDueCents: 0,
  overdue: false,
  paymentReference: null,
  balanceDueOn: null,
  depositCents: null,
};

interface Call {
  method: string;
  url: string;
  body: unknown;
}

let calls: Call[];
const NO_MONEY = {
  receivedCents: 0,
  cardReceivedCents: 0,
  bankReceivedCents: 0,
  refundedCents: 0,
  cardRefundedCents: 0,
  bankRefundedCents: 0,
};
const EMPTY_LEDGER = {
  money: {
    totalCents: 0,
    depositCents: null,
    ...NO_MONEY,
    atRiskCents: 0,
    lostCents: 0,
    writtenOffCents: 0,
    collectedCents: 0,
    heldCents: 0,
    owedCents: 0,
    refundsInFlightCents: 0,
    cancelInFlight: false,
  },
  entries: [],
};
let answer: (call: Call) => { status: number; body?: unknown };

beforeEach(() => {
  signInAs('owner');
  calls = [];
  document.cookie = 'csrf=test-token';
  clearAdminOrder();
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      // The ledger section (src/ledger/order-ledger.tsx) loads on its own: an empty ledger here.
      if (url.endsWith('/ledger')) return new Response(JSON.stringify(EMPTY_LEDGER), { status: 200 });
      const call = { method: init.method ?? 'GET', url, body: init.body ? JSON.parse(String(init.body)) : undefined };
      calls.push(call);
      const { status, body } = answer(call);
      return new Response(body === undefined ? null : JSON.stringify(body), { status });
    }),
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function renderPage() {
  return render(
    <MemoryRouter initialEntries={[`/admin/orders/${ORDER_ID}`]}>
      <Routes>
        <Route path="/admin/orders/:orderID" element={<AdminOrder />} />
      </Routes>
    </MemoryRouter>,
  );
}

const posts = () => calls.filter((call) => call.method === 'POST');

describe('Admin order page', () => {
  it('offers only the actions the role allows: a sales person ships, cancels and refunds; an accountant none of these', async () => {
    answer = () => ({ status: 200, body: paid });
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
    answer = () => ({ status: 200, body: paid });
    const { container } = renderPage();

    expect(await screen.findByRole('heading', { name: 'Order 9F3C2A1B' })).toBeTruthy();
    expect(calls[0]).toMatchObject({ method: 'GET', url: `/api/admin/orders/${ORDER_ID}` });
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
    answer = ({ method }) => ({ status: 200, body: method === 'POST' ? shipped : paid });
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
    answer = ({ method }) => ({ status: 200, body: method === 'POST' ? delivered : shipped });
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
    calls = [];
    const cancelled: AdminOrderData = {
      ...paid,
      status: 'cancelled',
      refundedCents: paid.totalCents,
      refundableCents: 0,
      allowedActions: [],
    };
    answer = ({ method }) => ({ status: 200, body: method === 'POST' ? cancelled : paid });
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
    answer = () => ({ status: 200, body: paid });
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
    answer = ({ method }) => {
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
    answer = ({ method }) => ({ status: 200, body: method === 'POST' ? refunded : paid });
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
    answer = ({ method }) => {
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
    answer = () => ({ status: 404, body: { error: { code: 'NOT_FOUND', message: 'Order not found' } } });
    renderPage();
    expect(await screen.findByRole('heading', { name: 'Order not found' })).toBeTruthy();
  });
  describe('a reserved order', () => {
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
      answer = () => ({ status: 200, body: reserved });
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
      answer = ({ method }) => ({ status: method === 'POST' ? 200 : 200, body: method === 'POST' ? paidInFull : reserved });
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
      answer = ({ method }) => {
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
      answer = ({ method }) => ({ status: 200, body: method === 'POST' ? cancelled : reserved });
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
      answer = ({ method }) => ({
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
});
