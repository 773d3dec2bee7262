import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AdminOrderSummary, UnmatchedPayment } from '@boatshop/contract';
import '../test/dialog-polyfill';
import { signInAs } from '../test/staff-session';
import AdminOrders from './admin-orders';

const shipped: AdminOrderSummary = {
  id: '9f3c2a1b-1111-4111-8111-111111111111',
  createdAt: '2026-11-22T10:00:00.000Z',
  status: 'shipped',
  totalCents: 2_000_000,
  refundedCents: 0,
  itemCount: 2,
  customer: { id: 'u1', email: 'sandy@example.com', displayName: 'Sandy Shopper' },
  balanceDueCents: 0,
  overdue: false,
};

const refunded: AdminOrderSummary = {
  id: '0a1b2c3d-2222-4222-8222-222222222222',
  createdAt: '2026-03-05T10:00:00.000Z',
  status: 'partially_refunded',
  totalCents: 69_000_000,
  refundedCents: 100_000,
  itemCount: 1,
  customer: { id: 'u2', email: 'olly@example.com', displayName: 'Olly Owner' },
  balanceDueCents: 0,
  overdue: false,
};

const unmatched: UnmatchedPayment = {
  id: 'up1',
  providerReference: 'pi_stray_1',
  amountCents: 450_000,
  currency: 'eur',
  reason: 'amount_mismatch',
  receivedAt: '2026-11-21T08:00:00.000Z',
  resolvedAt: null,
};

interface Call {
  method: string;
  url: string;
  body: unknown;
}

let calls: Call[];
let answer: (call: Call) => { status: number; body?: unknown };

beforeEach(() => {
  signInAs('owner');
  calls = [];
  document.cookie = 'csrf=test-token';
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
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

function Address() {
  const location = useLocation();
  return <output aria-label="address">{location.pathname + location.search}</output>;
}

function renderPage(path = '/admin/orders') {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route path="/admin/orders" element={<AdminOrders />} />
        <Route path="/admin/orders/:orderID" element={<p>order page</p>} />
      </Routes>
      <Address />
    </MemoryRouter>,
  );
}

const listCalls = () => calls.filter((call) => call.url.startsWith('/api/admin/orders'));

describe('Admin orders page', () => {
  it('lists orders with date, short id, customer, items, total in euros and the state in words, and pages on', async () => {
    const older = { ...refunded, id: '7e7e7e7e-3333-4333-8333-333333333333', status: 'delivered' as const, refundedCents: 0 };
    answer = ({ url }) => {
      if (url.startsWith('/api/admin/unmatched-payments')) return { status: 200, body: { data: [] } };
      return url.includes('cursor=c1')
        ? { status: 200, body: { data: [older], cursor: null, isLastPage: true } }
        : { status: 200, body: { data: [shipped, refunded], cursor: 'c1', isLastPage: false } };
    };
    renderPage();

    expect(screen.getByRole('heading', { name: 'Orders' })).toBeTruthy();
    const table = await screen.findByRole('table');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Order date', 'Order ID', 'Customer', 'Items', 'Total', 'State']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => [...row.children].map((cell) => cell.textContent))).toEqual([
      ['22/11/2026', '9F3C2A1B', 'Sandy Shoppersandy@example.com', '2', '20.000,00\u00a0€', 'Shipped'],
      ['05/03/2026', '0A1B2C3D', 'Olly Ownerolly@example.com', '1', '690.000,00\u00a0€−1.000,00\u00a0€ refunded', 'Partially refunded'],
    ]);
    expect(within(rows[0]!).getByRole('link', { name: '9F3C2A1B' }).getAttribute('href')).toBe(`/admin/orders/${shipped.id}`);
    expect(listCalls()[0]!.url).toBe('/api/admin/orders?limit=20');

    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await screen.findByRole('link', { name: '7E7E7E7E' });
    expect(listCalls()[1]!.url).toBe('/api/admin/orders?limit=20&cursor=c1');
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });

  it('filters by state and searches by order id or e-mail, keeping both in the address', async () => {
    answer = ({ url }) =>
      url.startsWith('/api/admin/unmatched-payments')
        ? { status: 200, body: { data: [] } }
        : { status: 200, body: { data: [shipped], cursor: null, isLastPage: true } };
    renderPage();
    await screen.findByRole('table');

    fireEvent.change(screen.getByLabelText('State'), { target: { value: 'shipped' } });
    await waitFor(() => expect(listCalls().at(-1)!.url).toBe('/api/admin/orders?status=shipped&limit=20'));

    fireEvent.change(screen.getByRole('searchbox', { name: 'Order ID or e-mail' }), { target: { value: ' sandy@ ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(listCalls().at(-1)!.url).toBe('/api/admin/orders?status=shipped&q=sandy%40&limit=20'));
    expect(screen.getByRole('status', { name: 'address' }).textContent).toBe('/admin/orders?status=shipped&q=sandy%40');
  });

  it('reads the filter from the address and says when nothing matches', async () => {
    answer = ({ url }) =>
      url.startsWith('/api/admin/unmatched-payments')
        ? { status: 200, body: { data: [] } }
        : { status: 200, body: { data: [], cursor: null, isLastPage: true } };
    renderPage('/admin/orders?status=disputed&q=9F3C2A1B');

    expect(await screen.findByText('No orders match.')).toBeTruthy();
    expect(listCalls()[0]!.url).toBe('/api/admin/orders?status=disputed&q=9F3C2A1B&limit=20');
    expect((screen.getByLabelText('State') as HTMLSelectElement).value).toBe('disputed');
    expect((screen.getByRole('searchbox') as HTMLInputElement).value).toBe('9F3C2A1B');
  });

  it("shows the API's message when the list cannot be loaded", async () => {
    answer = ({ url }) =>
      url.startsWith('/api/admin/unmatched-payments')
        ? { status: 200, body: { data: [] } }
        : { status: 400, body: { error: { code: 'VALIDATION_ERROR', message: 'from must be a date (YYYY-MM-DD)' } } };
    renderPage();

    expect((await screen.findByRole('alert')).textContent).toContain('from must be a date (YYYY-MM-DD)');
  });

  it('raises an alert for money received without an order, lists it, and marks it resolved', async () => {
    const resolvedAt = '2026-11-22T12:00:00.000Z';
    answer = ({ method, url }) => {
      if (method === 'POST') return { status: 200, body: { ...unmatched, resolvedAt } };
      if (url.startsWith('/api/admin/unmatched-payments')) return { status: 200, body: { data: [unmatched] } };
      return { status: 200, body: { data: [shipped], cursor: null, isLastPage: true } };
    };
    renderPage();

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('1 payment was received without an order.');
    fireEvent.click(within(alert).getByRole('button', { name: 'Review payments without an order' }));

    const dialog = screen.getByRole('dialog', { name: 'Payments without an order' });
    expect(dialog.textContent).toContain('4.500,00\u00a0€ received 21/11/2026');
    expect(dialog.textContent).toContain("Provider reference pi_stray_1. The amount differs from the order's total.");
    fireEvent.click(within(dialog).getByRole('button', { name: 'Mark resolved pi_stray_1' }));

    await within(dialog).findByText(/^Resolved/);
    expect(calls.at(-1)).toEqual({ method: 'POST', url: '/api/admin/unmatched-payments/up1/resolve', body: {} });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
  });
  it('flags a reserved order with its balance due and Overdue, and filters reserved orders past their due date', async () => {
    const reserved: AdminOrderSummary = {
      ...shipped,
      id: '5e5e5e5e-4444-4444-8444-444444444444',
      status: 'reserved',
      totalCents: 289_000_000,
      itemCount: 1,
      balanceDueCents: 260_100_000,
      overdue: true,
    };
    answer = ({ url }) =>
      url.startsWith('/api/admin/unmatched-payments')
        ? { status: 200, body: { data: [] } }
        : { status: 200, body: { data: [reserved], cursor: null, isLastPage: true } };
    renderPage();
    const table = await screen.findByRole('table');

    const [row] = within(table).getAllByRole('row').slice(1);
    expect([...row!.children].slice(4).map((cell) => cell.textContent)).toEqual([
      '2.890.000,00\u00a0€2.601.000,00\u00a0€ due',
      'ReservedOverdue',
    ]);

    fireEvent.change(screen.getByLabelText('State'), { target: { value: 'overdue' } });
    await waitFor(() => expect(listCalls().at(-1)!.url).toBe('/api/admin/orders?status=reserved&overdue=true&limit=20'));
    expect(screen.getByRole('status', { name: 'address' }).textContent).toBe('/admin/orders?status=reserved&overdue=1');
    expect(screen.getByLabelText<HTMLSelectElement>('State').value).toBe('overdue');

    fireEvent.change(screen.getByLabelText('State'), { target: { value: 'reserved' } });
    await waitFor(() => expect(listCalls().at(-1)!.url).toBe('/api/admin/orders?status=reserved&limit=20'));
  });
});
