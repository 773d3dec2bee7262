import { cleanup, render, screen, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AdminOrderSummary } from '@boatshop/contract';
import '../test/dialog-polyfill';
import { signInAs } from '../test/staff-session';
import AdminOrders from './admin-orders';

// Stock `short`: an order paid for a boat that went to another order. Admins see it in words.

const short: AdminOrderSummary = {
  id: '5a5a5a5a-1111-4111-8111-111111111111',
  createdAt: '2026-11-22T10:00:00.000Z',
  status: 'paid',
  totalCents: 4_500_000,
  refundedCents: 0,
  itemCount: 1,
  customer: { id: 'u1', email: 'late@example.com', displayName: 'Late Payer' },
  balanceDueCents: 0,
  overdue: false,
  stockStatus: 'short',
};
const sold: AdminOrderSummary = { ...short, id: '6b6b6b6b-2222-4222-8222-222222222222', stockStatus: 'sold' };

beforeEach(() => {
  signInAs('owner');
  document.cookie = 'csrf=test-token';
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      const body = url.startsWith('/api/admin/unmatched-payments') ? { data: [] } : { data: [short, sold], cursor: null, isLastPage: true };
      return new Response(JSON.stringify(body), { status: 200 });
    }),
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('Admin orders page, short stock', () => {
  it('says "Boat short" on a paid order whose boat went to another order, and only there', async () => {
    render(
      <MemoryRouter initialEntries={['/admin/orders']}>
        <Routes>
          <Route path="/admin/orders" element={<AdminOrders />} />
        </Routes>
      </MemoryRouter>,
    );
    const table = await screen.findByRole('table');
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => row.lastElementChild!.textContent)).toEqual(['PaidBoat short', 'Paid']);
    expect(within(rows[0]!).getByText('Boat short').getAttribute('title')).toMatch(/refund the buyer/);
  });
});
