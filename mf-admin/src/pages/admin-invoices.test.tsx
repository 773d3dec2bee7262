import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import AdminInvoices from './admin-invoices';

const fetchMock = vi.fn<(url: string, init: RequestInit) => Promise<Response>>();
const json = (status: number, body: unknown) => Promise.resolve(new Response(JSON.stringify(body), { status }));

const invoice = {
  id: '77777777-0000-4000-8000-000000000001',
  number: '2026-000041',
  kind: 'invoice',
  orderId: '33333333-0000-4000-8000-000000000003',
  issuedOn: '2026-11-26',
  netCents: 10_000_000,
  vatCents: 1_900_000,
  totalCents: 11_900_000,
  vatCase: 'standard',
  buyerCountry: 'DE',
  buyerVatId: null,
  correctsNumber: null,
};
const credit = {
  ...invoice,
  id: '77777777-0000-4000-8000-000000000002',
  number: 'CN-2026-000001',
  kind: 'credit_note',
  netCents: 84_034,
  vatCents: 15_966,
  totalCents: 100_000,
  correctsNumber: '2026-000041',
};
const summary = {
  from: '2026-11-01',
  to: '2026-11-30',
  rows: [
    {
      country: 'DE',
      rateBasisPoints: 1900,
      vatCase: 'standard',
      netCents: 9_915_966,
      vatCents: 1_884_034,
      totalCents: 11_800_000,
      documents: 2,
    },
    {
      country: 'FR',
      rateBasisPoints: 0,
      vatCase: 'intra_community',
      netCents: 24_285_700,
      vatCents: 0,
      totalCents: 24_285_700,
      documents: 1,
    },
  ],
  netCents: 34_201_666,
  vatCents: 1_884_034,
  totalCents: 36_085_700,
};

beforeEach(() => {
  document.cookie = 'csrf=t; path=/';
  vi.stubGlobal('fetch', fetchMock);
  fetchMock.mockImplementation((url) => {
    if (url.startsWith('/api/admin/invoices/vat-summary')) return json(200, summary);
    if (url.startsWith('/api/admin/invoices?')) return json(200, { data: [invoice, credit] });
    return json(404, { error: { code: 'NOT_FOUND', message: url } });
  });
});
afterEach(() => {
  cleanup();
  fetchMock.mockReset();
  vi.unstubAllGlobals();
});

function renderAt(url: string) {
  render(
    <MemoryRouter initialEntries={[url]}>
      <Routes>
        <Route path="/admin/invoices" element={<AdminInvoices />} />
      </Routes>
    </MemoryRouter>,
  );
}

describe('AdminInvoices', () => {
  it("lists the period's documents with downloads, the CSV link and the VAT per country and rate", async () => {
    renderAt('/admin/invoices?from=2026-11-01&to=2026-11-30');
    const documents = await screen.findByRole('region', { name: 'Invoices and credit notes' });
    expect(fetchMock.mock.calls.map(([url]) => url).sort()).toEqual([
      '/api/admin/invoices/vat-summary?from=2026-11-01&to=2026-11-30',
      '/api/admin/invoices?from=2026-11-01&to=2026-11-30',
    ]);
    expect(screen.getByText('Issued from 01/11/2026 to 30/11/2026')).toBeTruthy();
    const creditRow = within(documents).getByRole('row', { name: /CN-2026-000001/ });
    expect(creditRow.textContent).toContain('Credit note for 2026-000041');
    expect(creditRow.textContent).toContain('-1.000,00\u00a0€');
    expect(within(creditRow).getByRole('link', { name: 'Download' }).getAttribute('href')).toBe(`/api/admin/invoices/${credit.id}/pdf`);
    expect(screen.getByRole('link', { name: 'Export CSV' }).getAttribute('href')).toBe(
      '/api/admin/invoices/export?from=2026-11-01&to=2026-11-30',
    );

    const vat = screen.getByRole('region', { name: 'VAT per country and rate' });
    const germany = within(vat).getByRole('row', { name: /^DE/ });
    expect(germany.textContent).toContain('19,00 %');
    expect(germany.textContent).toContain('18.840,34\u00a0€');
    expect(within(vat).getByRole('row', { name: /^FR/ }).textContent).toContain('Intra-Community (reverse charge)');
    expect(screen.getByText('Net amount per country and rate')).toBeTruthy();
  });

  it('asks again for another period', async () => {
    renderAt('/admin/invoices?from=2026-11-01&to=2026-11-30');
    await screen.findByRole('region', { name: 'Invoices and credit notes' });
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-10-01' } });
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2026-10-31' } });
    fireEvent.click(screen.getByRole('button', { name: 'Show' }));
    await vi.waitFor(() => expect(fetchMock.mock.calls.map(([url]) => url)).toContain('/api/admin/invoices?from=2026-10-01&to=2026-10-31'));
  });
});
