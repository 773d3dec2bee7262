// The admin order page under test: an order as the API sends it, a stand-in API that records
// each call and answers as the test says, and the page rendered at its route.
import { cleanup, render } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, beforeEach, vi } from 'vitest';
import type { AdminOrder as AdminOrderData } from '@boatshop/contract';
import './dialog-polyfill';
import { signInAs } from './staff-session';
import { clearAdminOrder } from '../orders/admin-orders';
import AdminOrder from '../pages/admin-order';

export const ORDER_ID = '9f3c2a1b-1111-4111-8111-111111111111';
const address = { line1: '1 Quay', city: 'Cork', state: 'CO', postal_code: 'T12', country: 'IE' };

export const paid: AdminOrderData = {
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

export interface Call {
  method: string;
  url: string;
  body: unknown;
}

export const NO_MONEY = {
  receivedCents: 0,
  cardReceivedCents: 0,
  bankReceivedCents: 0,
  refundedCents: 0,
  cardRefundedCents: 0,
  bankRefundedCents: 0,
};
export const EMPTY_LEDGER = {
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
/** What the stand-in API was asked, and how it answers: each test sets `answer`. */
export const api: { calls: Call[]; answer: (call: Call) => { status: number; body?: unknown } } = {
  calls: [],
  answer: () => ({ status: 500 }),
};

/** A signed-in owner, the CSRF cookie and the stand-in API around each test of the file that calls it. */
export function setUpAdminOrderPage(): void {
  beforeEach(() => {
    signInAs('owner');
    api.calls = [];
    document.cookie = 'csrf=test-token';
    clearAdminOrder();
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit = {}) => {
        // The ledger section (src/ledger/order-ledger.tsx) loads on its own: an empty ledger here.
        if (url.endsWith('/ledger')) return new Response(JSON.stringify(EMPTY_LEDGER), { status: 200 });
        const call = { method: init.method ?? 'GET', url, body: init.body ? JSON.parse(String(init.body)) : undefined };
        api.calls.push(call);
        const { status, body } = api.answer(call);
        return new Response(body === undefined ? null : JSON.stringify(body), { status });
      }),
    );
  });

  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });
}

export function renderPage() {
  return render(
    <MemoryRouter initialEntries={[`/admin/orders/${ORDER_ID}`]}>
      <Routes>
        <Route path="/admin/orders/:orderID" element={<AdminOrder />} />
      </Routes>
    </MemoryRouter>,
  );
}

export const posts = () => api.calls.filter((call) => call.method === 'POST');
