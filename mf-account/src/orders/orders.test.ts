import { cleanStores, keepMount } from 'nanostores';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Order } from '@boatshop/contract';
import { $orderDetails, $orderHistory, clearOrderDetails, confirmOrderPayment, fetchOrderDetails, fetchOrderHistory } from './orders';

const fetchMock = vi.fn<(url: string, init: RequestInit) => Promise<Response>>();

const json = (status: number, body: unknown) =>
  Promise.resolve(new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }));

const ORDER_ID = '0b7c6d1e-0000-4000-8000-000000000001';
const order: Order = {
  id: ORDER_ID,
  createdAt: '2026-11-21T10:00:00.000Z',
  totalCents: 2_500_000,
  status: 'paid',
  paidAt: '2026-11-21T10:00:05.000Z',
  paidCents: 2_500_000,
  depositCents: null,
  balance: null,
  items: [{ productId: 'p1', name: 'Ketch 40', thumbnailUrl: '/api/images/ketch.svg', unitPriceCents: 2_500_000, quantity: 1 }],
  shipping: { name: 'Sandy', address: { line1: '1 Quay', city: 'Cork', state: 'CO', postal_code: 'T12', country: 'IE' } },
  billing: { name: 'Sandy', address: { line1: '1 Quay', city: 'Cork', state: 'CO', postal_code: 'T12', country: 'IE' } },
  refundedCents: 0,
  carrier: null,
  trackingNumber: null,
  timeline: [{ status: 'paid', at: '2026-11-21T10:00:05.000Z', amountCents: null, note: null }],
};

beforeEach(() => {
  document.cookie = 'csrf=t; path=/';
  vi.stubGlobal('fetch', fetchMock);
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  $orderHistory.set({ status: 'idle', data: [] });
  clearOrderDetails();
  keepMount($orderHistory);
  keepMount($orderDetails);
});

afterEach(() => {
  fetchMock.mockReset();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  cleanStores($orderHistory, $orderDetails);
});

describe('order history', () => {
  it('holds what GET /api/orders answers', async () => {
    const summary = { id: ORDER_ID, createdAt: order.createdAt, totalCents: 2_500_000, status: 'paid' as const };
    fetchMock.mockReturnValueOnce(json(200, { data: [summary] }));

    await fetchOrderHistory();

    expect(fetchMock).toHaveBeenCalledWith('/api/orders', expect.objectContaining({ method: 'GET' }));
    expect($orderHistory.get()).toEqual({ status: 'ready', data: [summary] });
  });

  it('only logs a failure, keeping what it had', async () => {
    const summary = { id: ORDER_ID, createdAt: order.createdAt, totalCents: 2_500_000, status: 'paid' as const };
    $orderHistory.set({ status: 'ready', data: [summary] });
    fetchMock.mockReturnValueOnce(json(500, { error: { code: 'INTERNAL', message: 'Internal server error' } }));

    await fetchOrderHistory();

    expect($orderHistory.get()).toEqual({ status: 'error', data: [summary] });
    expect(console.error).toHaveBeenCalled();
  });
});

describe('order details', () => {
  it('loads one order', async () => {
    fetchMock.mockReturnValueOnce(json(200, order));

    await fetchOrderDetails(ORDER_ID);

    expect(fetchMock).toHaveBeenCalledWith(`/api/orders/${ORDER_ID}`, expect.anything());
    expect($orderDetails.get()).toEqual({ status: 'ready', order });
  });

  it("reads an unknown or someone else's order as not found", async () => {
    fetchMock.mockReturnValueOnce(json(404, { error: { code: 'NOT_FOUND', message: 'Order not found' } }));

    await fetchOrderDetails(ORDER_ID);

    expect($orderDetails.get()).toEqual({ status: 'not-found', order: null });
  });

  it('stays cleared when the answer arrives after the page was left', async () => {
    let answer: (response: Response) => void = () => undefined;
    fetchMock.mockReturnValueOnce(new Promise<Response>((resolve) => (answer = resolve)));

    const loading = fetchOrderDetails(ORDER_ID);
    clearOrderDetails();
    answer(new Response(JSON.stringify(order), { status: 200 }));
    await loading;

    expect($orderDetails.get()).toEqual({ status: 'idle', order: null });
  });
});

describe('confirmOrderPayment', () => {
  it('asks the API to confirm until the order is paid, then loads it', async () => {
    fetchMock
      .mockReturnValueOnce(json(200, { orderId: ORDER_ID, status: 'pending' }))
      .mockReturnValueOnce(json(200, { orderId: ORDER_ID, status: 'paid' }))
      .mockReturnValueOnce(json(200, order));

    const status = await confirmOrderPayment(ORDER_ID, { delayMs: 0 });

    expect(status).toBe('paid');
    const confirmCalls = fetchMock.mock.calls.filter(([url]) => url === '/api/payments/confirm');
    expect(confirmCalls).toHaveLength(2);
    expect(JSON.parse(confirmCalls[0]![1].body as string)).toEqual({ orderId: ORDER_ID });
    expect($orderDetails.get()).toEqual({ status: 'ready', order });
  });

  it('gives up after the attempts and shows the order as it stands', async () => {
    fetchMock.mockImplementation((url) =>
      url === '/api/payments/confirm'
        ? json(200, { orderId: ORDER_ID, status: 'pending' })
        : json(200, { ...order, status: 'pending', paidAt: null }),
    );

    const status = await confirmOrderPayment(ORDER_ID, { attempts: 3, delayMs: 0 });

    expect(status).toBe('pending');
    expect(fetchMock.mock.calls.filter(([url]) => url === '/api/payments/confirm')).toHaveLength(3);
    expect($orderDetails.get().order?.status).toBe('pending');
  });
});
