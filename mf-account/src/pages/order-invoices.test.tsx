import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { OrderInvoices } from './order-invoices';

const fetchMock = vi.fn<(url: string, init: RequestInit) => Promise<Response>>();
const json = (status: number, body: unknown) => Promise.resolve(new Response(JSON.stringify(body), { status }));
const ORDER_ID = '33333333-0000-4000-8000-000000000003';

const advance = {
  id: '77777777-0000-4000-8000-000000000001',
  number: '2026-000041',
  kind: 'advance',
  orderId: ORDER_ID,
  issuedOn: '2026-11-26',
  netCents: 24_285_700,
  vatCents: 0,
  totalCents: 24_285_700,
  vatCase: 'intra_community',
  buyerCountry: 'FR',
  buyerVatId: 'FR40303265045',
  correctsNumber: null,
};
const credit = {
  ...advance,
  id: '77777777-0000-4000-8000-000000000002',
  number: 'CN-2026-000003',
  kind: 'credit_note',
  issuedOn: '2026-12-07',
  netCents: 100_000,
  totalCents: 100_000,
  correctsNumber: '2026-000041',
};

beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  cleanup();
  fetchMock.mockReset();
  vi.unstubAllGlobals();
});

describe('OrderInvoices', () => {
  it("lists the order's documents with their number, date, amount and a download link", async () => {
    fetchMock.mockImplementation(() => json(200, { data: [advance, credit] }));
    render(<OrderInvoices orderId={ORDER_ID} status="reserved" />);
    const section = await screen.findByRole('region', { name: 'Invoices and credit notes' });
    await within(section).findByText('2026-000041');
    expect(fetchMock.mock.calls[0]![0]).toBe(`/api/invoices?orderId=${ORDER_ID}`);
    const rows = within(section).getAllByRole('row');
    expect(rows[1]!.textContent).toContain('Advance payment invoice');
    expect(rows[1]!.textContent).toContain('26/11/2026');
    expect(rows[1]!.textContent).toContain('242.857,00\u00a0€');
    expect(rows[2]!.textContent).toContain('Credit note (for invoice 2026-000041)');
    expect(rows[2]!.textContent).toContain('−1.000,00\u00a0€');
    const link = within(section).getByRole('link', { name: 'Download CN-2026-000003' });
    expect(link.getAttribute('href')).toBe(`/api/invoices/${credit.id}/pdf`);
  });

  it('shows nothing for an order without documents, and says so when they cannot be loaded', async () => {
    fetchMock.mockImplementation(() => json(200, { data: [] }));
    const { container, unmount } = render(<OrderInvoices orderId={ORDER_ID} status="pending" />);
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalled());
    await vi.waitFor(() => expect(container.textContent).toBe(''));
    unmount();

    fetchMock.mockImplementation(() => json(500, { error: { code: 'INTERNAL', message: 'x' } }));
    render(<OrderInvoices orderId={ORDER_ID} status="paid" />);
    expect(await screen.findByText('The invoices could not be loaded. Please try again later.')).toBeTruthy();
  });
});
