import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { formatDate, setSessionUser } from '@boatshop/state';
import { $orderHistory } from '../orders/orders';
import Dashboard from './dashboard';

const fetchMock = vi.fn<(url: string, init: RequestInit) => Promise<Response>>();

const older = { id: '11111111-0000-4000-8000-000000000001', createdAt: '2026-03-05T09:00:00.000Z', totalCents: 1_250_050, status: 'paid' };
const newer = {
  id: '22222222-0000-4000-8000-000000000002',
  createdAt: '2026-11-20T18:30:00.000Z',
  totalCents: 99_999,
  status: 'partially_refunded',
};

beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
  $orderHistory.set({ status: 'idle', data: [] });
});

afterEach(() => {
  cleanup();
  fetchMock.mockReset();
  vi.unstubAllGlobals();
});

function renderDashboard() {
  render(
    <MemoryRouter initialEntries={['/dashboard']}>
      <Routes>
        <Route path="/dashboard" element={<Dashboard />} />
        <Route path="/order/:orderID" element={<p>order page</p>} />
      </Routes>
    </MemoryRouter>,
  );
}

describe('dashboard', () => {
  it('fetches the order history on opening and lists date, id, amount and state in words, in the API order', async () => {
    fetchMock.mockResolvedValueOnce(new Response(JSON.stringify({ data: [newer, older] }), { status: 200 }));
    renderDashboard();

    expect(screen.getByRole('heading', { name: 'Order history' })).toBeTruthy();
    const table = await screen.findByRole('table');
    expect(fetchMock).toHaveBeenCalledWith('/api/orders', expect.objectContaining({ method: 'GET' }));
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Order Date', 'Order ID', 'Amount', 'State']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(
      rows.map((row) =>
        within(row)
          .getAllByRole('cell')
          .map((cell) => cell.textContent),
      ),
    ).toEqual([
      [formatDate(newer.createdAt), newer.id, '999,99\u00a0€', 'Partially refunded'],
      [formatDate(older.createdAt), older.id, '12.500,50\u00a0€', 'Paid'],
    ]);
    expect(formatDate(older.createdAt)).toMatch(/^0[45]\/03\/2026$/);
  });

  it('lists a boat reserved with a deposit as Reserved', async () => {
    const reserved = {
      id: '33333333-0000-4000-8000-000000000003',
      createdAt: '2026-11-23T10:00:00.000Z',
      totalCents: 289_000_000,
      status: 'reserved',
    };
    fetchMock.mockResolvedValueOnce(new Response(JSON.stringify({ data: [reserved] }), { status: 200 }));
    renderDashboard();

    const row = within(await screen.findByRole('table')).getAllByRole('row')[1]!;
    expect(
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent)
        .slice(2),
    ).toEqual(['2.890.000,00\u00a0€', 'Reserved']);
  });

  it('opens the order page from the link in a row', async () => {
    fetchMock.mockResolvedValueOnce(new Response(JSON.stringify({ data: [newer] }), { status: 200 }));
    renderDashboard();

    const link = await screen.findByRole('link', { name: newer.id });
    expect(link.getAttribute('href')).toBe(`/order/${newer.id}`);
    fireEvent.click(link);

    expect(await screen.findByText('order page')).toBeTruthy();
  });

  it('opens the order page from a click anywhere on the row', async () => {
    fetchMock.mockResolvedValueOnce(new Response(JSON.stringify({ data: [newer] }), { status: 200 }));
    renderDashboard();

    fireEvent.click(await screen.findByText('999,99 €'));

    expect(await screen.findByText('order page')).toBeTruthy();
  });

  it('says so when there are no orders', async () => {
    fetchMock.mockResolvedValueOnce(new Response(JSON.stringify({ data: [] }), { status: 200 }));
    renderDashboard();

    expect(await screen.findByText('You have no orders yet.')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('marks an unverified account and offers the password form and logging out everywhere', async () => {
    setSessionUser({
      id: 'u1',
      displayName: 'Sandy',
      email: 'sandy@example.com',
      userRoles: ['user'],
      emailVerified: false,
      hasPassword: true,
    });
    fetchMock.mockResolvedValueOnce(new Response(JSON.stringify({ data: [] }), { status: 200 }));
    renderDashboard();

    expect(screen.getByText('Your e-mail address is not verified')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Resend the e-mail' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Change password' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Log out of all devices' })).toBeTruthy();
    expect(await screen.findByText('You have no orders yet.')).toBeTruthy();

    setSessionUser(null);
  });
});
