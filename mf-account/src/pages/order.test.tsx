import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useNavigate } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Order as OrderData } from '@boatshop/contract';
import { formatDate } from '@boatshop/state';
import { $orderDetails, clearOrderDetails } from '../orders/orders';
import Order from './order';

const fetchMock = vi.fn<(url: string, init: RequestInit) => Promise<Response>>();

const ORDER_ID = '33333333-0000-4000-8000-000000000003';
const address = { line1: '1 Quay', city: 'Cork', state: 'CO', postal_code: 'T12', country: 'IE' };
const order: OrderData = {
  id: ORDER_ID,
  createdAt: '2026-11-21T10:00:00.000Z',
  totalCents: 2_599_999,
  status: 'paid',
  paidAt: '2026-11-21T10:00:05.000Z',
  paidCents: 2_599_999,
  depositCents: null,
  balance: null,
  items: [
    { productId: 'p1', name: 'Ketch 40', thumbnailUrl: '/api/images/ketch.svg', unitPriceCents: 1_250_000, quantity: 2 },
    { productId: null, name: 'Dinghy', thumbnailUrl: '/api/images/dinghy.svg', unitPriceCents: 99_999, quantity: 1 },
  ],
  shipping: { name: 'Sandy', address },
  billing: { name: 'Sandy', address },
  refundedCents: 0,
  carrier: null,
  trackingNumber: null,
  timeline: [{ status: 'paid', at: '2026-11-21T10:00:05.000Z', amountCents: null, note: null }],
};

const json = (status: number, body: unknown) => Promise.resolve(new Response(JSON.stringify(body), { status }));

beforeEach(() => {
  document.cookie = 'csrf=t; path=/';
  vi.stubGlobal('fetch', fetchMock);
  clearOrderDetails();
});

afterEach(() => {
  cleanup();
  fetchMock.mockReset();
  vi.unstubAllGlobals();
});

function LeaveButton() {
  const navigate = useNavigate();
  return (
    <button type="button" onClick={() => navigate('/dashboard')}>
      leave
    </button>
  );
}

function renderOrder(state?: unknown) {
  render(
    <MemoryRouter initialEntries={[{ pathname: `/order/${ORDER_ID}`, state }]}>
      <Routes>
        <Route
          path="/order/:orderID"
          element={
            <>
              <Order />
              <LeaveButton />
            </>
          }
        />
        <Route path="/dashboard" element={<p>dashboard</p>} />
      </Routes>
    </MemoryRouter>,
  );
}

describe('order page', () => {
  it('shows the order number, its items with thumbnail, name, price and quantity, and the total', async () => {
    fetchMock.mockReturnValueOnce(json(200, order));
    renderOrder();

    expect(await screen.findByRole('heading', { name: `Order ${ORDER_ID}` })).toBeTruthy();
    const table = screen.getByRole('table');
    const rows = within(table).getAllByRole('row').slice(1);
    expect(within(rows[0]!).getByRole('img', { name: 'Ketch 40' }).getAttribute('src')).toBe('/api/images/ketch.svg');
    expect(
      rows.map((row) =>
        within(row)
          .getAllByRole('cell')
          .slice(1)
          .map((cell) => cell.textContent),
      ),
    ).toEqual([
      ['Ketch 40', '12.500,00\u00a0€', '2'],
      ['Dinghy', '999,99\u00a0€', '1'],
    ]);
    expect(screen.getByText('25.999,99 €')).toBeTruthy();
    expect(screen.queryByText('Thank you, your payment was received.')).toBeNull();
  });

  it('shows the state and the timeline in words: paid, shipped with carrier and tracking number, refunded with the amount', async () => {
    const shippedAt = '2026-11-22T09:00:00.000Z';
    const refundedAt = '2026-11-23T15:00:00.000Z';
    fetchMock.mockReturnValueOnce(
      json(200, {
        ...order,
        status: 'partially_refunded',
        refundedCents: 100_000,
        carrier: 'DHL',
        trackingNumber: 'JJD0001',
        timeline: [
          ...order.timeline,
          { status: 'shipped', at: shippedAt, amountCents: null, note: 'Carrier: DHL, tracking number: JJD0001' },
          { status: 'partially_refunded', at: refundedAt, amountCents: 100_000, note: null },
        ],
      }),
    );
    renderOrder();

    const timeline = await screen.findByRole('list');
    expect(
      within(timeline)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      `Paid on ${formatDate(order.paidAt!)}`,
      `Shipped on ${formatDate(shippedAt)}Carrier: DHL, tracking number: JJD0001`,
      `Refunded 1.000,00\u00a0€ on ${formatDate(refundedAt)}`,
    ]);
    const facts = screen.getAllByRole('term')[0]!.closest('dl')!;
    expect(facts.textContent).toBe('StatePartially refundedRefunded1.000,00\u00a0€ShippingCarrier: DHL, tracking number: JJD0001');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('names a cancelled order as such and raises no payment alarm', async () => {
    const cancelledAt = '2026-11-22T09:00:00.000Z';
    fetchMock.mockReturnValueOnce(
      json(200, {
        ...order,
        status: 'cancelled',
        refundedCents: order.totalCents,
        timeline: [...order.timeline, { status: 'cancelled', at: cancelledAt, amountCents: order.totalCents, note: null }],
      }),
    );
    renderOrder();

    // Testing Library reads the non-breaking space before € as a plain one.
    expect(await screen.findByText(`Cancelled on ${formatDate(cancelledAt)}, 25.999,99 € refunded`)).toBeTruthy();
    expect(screen.getByText('Cancelled', { selector: 'dd' })).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it("says 'Order not found' for an unknown or someone else's order", async () => {
    fetchMock.mockReturnValueOnce(json(404, { error: { code: 'NOT_FOUND', message: 'Order not found' } }));
    renderOrder();

    expect(await screen.findByRole('heading', { name: 'Order not found' })).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('confirms the payment with the API after checkout and then thanks the shopper', async () => {
    fetchMock.mockImplementation((url) =>
      url === '/api/payments/confirm' ? json(200, { orderId: ORDER_ID, status: 'paid' }) : json(200, order),
    );
    renderOrder({ paymentReceived: true });

    expect(await screen.findByText('Thank you, your payment was received.')).toBeTruthy();
    expect(fetchMock.mock.calls.map(([url]) => url).filter((url) => !url.startsWith('/api/invoices'))).toEqual([
      '/api/payments/confirm',
      `/api/orders/${ORDER_ID}`,
    ]);
  });

  it('clears the order details when the page is left', async () => {
    fetchMock.mockReturnValueOnce(json(200, order));
    renderOrder();
    await screen.findByRole('table');

    screen.getByRole('button', { name: 'leave' }).click();

    expect(await screen.findByText('dashboard')).toBeTruthy();
    expect($orderDetails.get()).toEqual({ status: 'idle', order: null });
  });
  describe('a boat reserved with a deposit', () => {
    const depositAt = '2026-11-23T10:00:05.000Z';
    const reserved: OrderData = {
      ...order,
      totalCents: 289_000_000,
      status: 'reserved',
      paidAt: null,
      paidCents: 28_900_000,
      depositCents: 28_900_000,
      items: [
        {
          productId: 'p64',
          name: 'Belmare 64 Sport',
          thumbnailUrl: '/api/images/belmare-64-sport.svg',
          unitPriceCents: 289_000_000,
          quantity: 1,
        },
      ],
      balance: {
        amountCents: 260_100_000,
        dueOn: '2026-12-07',
        reference: 'RF18539007547034',
        accountHolder: 'Boat Shop GmbH',
        iban: 'DE89370400440532013000',
        bic: 'COBADEFFXXX',
        overdue: false,
      },
      timeline: [
        { status: 'pending', at: '2026-11-23T10:00:00.000Z', amountCents: null, note: null },
        { status: 'reserved', at: depositAt, amountCents: 28_900_000, note: 'Deposit paid' },
      ],
    };

    function detail(term: string) {
      return screen.getByText(term, { selector: 'dt' }).nextElementSibling!.textContent;
    }

    it('says Reserved and how to pay the balance: amount, holder, IBAN, BIC, due date and the RF reference, which copies', async () => {
      const writeText = vi.fn(() => Promise.resolve());
      vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
      fetchMock.mockImplementation((url) =>
        url === '/api/payments/confirm' ? json(200, { orderId: ORDER_ID, status: 'reserved' }) : json(200, reserved),
      );
      renderOrder({ paymentReceived: true });

      expect(
        await screen.findByText('Thank you, your deposit was received. The boat is reserved for you until the balance arrives.'),
      ).toBeTruthy();
      // Reserved ends the wait for the provider: one confirmation, then the order.
      expect(fetchMock.mock.calls.map(([url]) => url).filter((url) => !url.startsWith('/api/invoices'))).toEqual([
        '/api/payments/confirm',
        `/api/orders/${ORDER_ID}`,
      ]);
      expect(screen.getByText('Reserved', { selector: 'dd' })).toBeTruthy();
      expect(detail('Deposit')).toBe('289.000,00\u00a0€');
      const block = within(screen.getByRole('region', { name: 'How to pay the balance' }));
      expect(block.getByText('Amount').nextElementSibling!.textContent).toBe('2.601.000,00\u00a0€');
      expect(block.getByText('Account holder').nextElementSibling!.textContent).toBe('Boat Shop GmbH');
      expect(block.getByText('IBAN').nextElementSibling!.textContent).toBe('DE89 3704 0044 0532 0130 00');
      expect(block.getByText('BIC').nextElementSibling!.textContent).toBe('COBADEFFXXX');
      expect(block.getByText('Due date').nextElementSibling!.textContent).toBe('07/12/2026');
      expect(block.getByText('Payment reference').nextElementSibling!.textContent).toMatch(/^RF18 5390 0754 7034 Copy reference/);
      expect(block.queryByRole('alert')).toBeNull();

      fireEvent.click(block.getByRole('button', { name: 'Copy reference' }));

      expect(await block.findByText('Reference copied.')).toBeTruthy();
      expect(writeText).toHaveBeenCalledWith('RF18539007547034');
      const timeline = screen.getAllByRole('list')[0]!;
      expect(
        within(timeline)
          .getAllByRole('listitem')
          .map((item) => item.textContent),
      ).toEqual([
        `Ordered on ${formatDate('2026-11-23T10:00:00.000Z')}`,
        `Deposit paid 289.000,00\u00a0€ on ${formatDate(depositAt)}, the boat is reserved for you`,
      ]);
    });

    it('warns when the balance is overdue', async () => {
      fetchMock.mockReturnValueOnce(json(200, { ...reserved, balance: { ...reserved.balance!, overdue: true } }));
      renderOrder();

      const alert = await screen.findByRole('alert');
      expect(alert.textContent).toContain('The balance was due on 07/12/2026 and has not reached us yet.');
    });

    it('shows the transfer in the timeline and no bank details once paid in full', async () => {
      const transferAt = '2026-11-30T09:00:00.000Z';
      fetchMock.mockReturnValueOnce(
        json(200, {
          ...reserved,
          status: 'paid',
          paidAt: transferAt,
          paidCents: 289_000_000,
          balance: null,
          timeline: [...reserved.timeline, { status: 'paid', at: transferAt, amountCents: 260_100_000, note: 'Bank transfer received' }],
        }),
      );
      renderOrder();

      expect(await screen.findByText(`Bank transfer received 2.601.000,00 € on ${formatDate(transferAt)}, paid in full`)).toBeTruthy();
      expect(screen.getByText('Paid', { selector: 'dd' })).toBeTruthy();
      expect(screen.queryByRole('region', { name: 'How to pay the balance' })).toBeNull();
    });
  });
});
