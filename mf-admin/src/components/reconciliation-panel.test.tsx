import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ReconciliationAlert } from '@boatshop/contract';
import { signInAs } from '../test/staff-session';
import { ReconciliationButton } from './reconciliation-panel';

const alert: ReconciliationAlert = {
  id: '3c3c3c3c-1111-4111-8111-111111111111',
  orderId: '9f3c2a1b-1111-4111-8111-111111111111',
  kind: 'card_refunds',
  ledgerCents: 0,
  sourceCents: 300_000,
  detail: 'The ledger holds 0,00 € of card refunds made by the provider; the provider says 3.000,00 €.',
  createdAt: '2026-11-26T04:00:00.000Z',
  resolvedAt: null,
  resolution: null,
};

let calls: { method: string; url: string; body: unknown }[];
let open: ReconciliationAlert[];

beforeEach(() => {
  signInAs('owner');
  document.cookie = 'csrf=test-token';
  calls = [];
  open = [alert];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const call = { method: init.method ?? 'GET', url, body: init.body ? JSON.parse(String(init.body)) : undefined };
      calls.push(call);
      if (url.startsWith('/api/admin/reconciliation/alerts?')) return new Response(JSON.stringify({ data: open }), { status: 200 });
      if (url === '/api/admin/reconciliation/run')
        return new Response(JSON.stringify({ checked: 12, raised: 1, open: 1 }), { status: 200 });
      open = [];
      return new Response(JSON.stringify({ ...alert, resolvedAt: '2026-11-26T04:01:00.000Z', resolution: 'Booked by hand' }), {
        status: 200,
      });
    }),
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('Reconciliation panel', () => {
  it('opens on demand, runs the comparison, and resolves an alert only with a reason', async () => {
    render(
      <MemoryRouter>
        <ReconciliationButton />
      </MemoryRouter>,
    );
    expect(calls).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: 'Reconciliation' }));
    expect((await screen.findByRole('alert')).textContent).toContain('the provider says 3.000,00 €');
    expect(screen.getByRole('link', { name: 'Order 9F3C2A1B' }).getAttribute('href')).toBe(`/admin/orders/${alert.orderId}`);

    fireEvent.click(screen.getByRole('button', { name: 'Reconcile now' }));
    expect(await screen.findByText('Compared 12 orders: 1 new difference.')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Resolve' }));
    expect(await screen.findByText('Say why the difference is settled before resolving it.')).toBeTruthy();
    expect(calls.some((call) => call.url.endsWith('/resolve'))).toBe(false);

    fireEvent.change(screen.getByLabelText('Reason'), { target: { value: 'Booked by hand' } });
    fireEvent.click(screen.getByRole('button', { name: 'Resolve' }));
    expect(await screen.findByText('Alert resolved.')).toBeTruthy();
    expect(calls.find((call) => call.url.endsWith('/resolve'))).toMatchObject({
      method: 'POST',
      url: `/api/admin/reconciliation/alerts/${alert.id}/resolve`,
      body: { reason: 'Booked by hand' },
    });
    expect(await screen.findByText(/agrees with the payment provider/)).toBeTruthy();
  });
});
