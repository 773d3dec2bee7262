import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Product } from '@boatshop/contract';
import { EMPTY_BOAT_SPECS } from '@boatshop/contract/constants';
import '../test/dialog-polyfill';
import { signInAs } from '../test/staff-session';
import Admin from './admin';

const sloop: Product = {
  id: '11111111-1111-4111-8111-111111111111',
  name: 'Contessa 32',
  thumbnailUrl: '/api/images/sailing-1.svg',
  priceCents: 4_500_000,
  descriptionHtml: '<p>Classic.</p>',
  category: 'sailing-boats',
  createdAt: '2024-03-05T10:00:00.000Z',
  stock: 1,
  availability: 'in_stock',
};

const yacht: Product = {
  id: '22222222-2222-4222-8222-222222222222',
  name: 'Oyster 565',
  thumbnailUrl: 'https://images.example.test/oyster.jpg',
  priceCents: 250_000_050,
  descriptionHtml: '',
  category: 'yachts',
  createdAt: '2024-02-01T10:00:00.000Z',
  stock: null,
  availability: 'in_stock',
};

interface Call {
  method: string;
  url: string;
  body: unknown;
}

let calls: Call[];
let answer: (call: Call) => { status: number; body?: unknown };

function json(status: number, body?: unknown): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
  });
}

beforeEach(() => {
  signInAs('owner');
  calls = [];
  document.cookie = 'csrf=test-token';
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const call = { method: init.method ?? 'GET', url, body: init.body ? JSON.parse(String(init.body)) : undefined };
      calls.push(call);
      const { status, body } = answer(call);
      return json(status, body);
    }),
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderPage() {
  return render(
    <MemoryRouter initialEntries={['/admin']}>
      <Admin />
    </MemoryRouter>,
  );
}

const firstPage = { data: [sloop, yacht], cursor: 'next', isLastPage: false };

describe('Admin page', () => {
  it('shows the catalogue read-only to a role without catalog.write (an accountant)', async () => {
    answer = () => ({ status: 200, body: firstPage });
    signInAs('accountant');
    renderPage();
    const row = await screen.findByRole('row', { name: /Oyster 565/ });
    expect(within(row).queryByRole('button', { name: /Edit|Delete/ })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Add new product' })).toBeNull();
  });

  it('lists products with formatted price and date, and loads the next page on demand', async () => {
    const older = { ...sloop, id: '33333333-3333-4333-8333-333333333333', name: 'Folkboat', createdAt: '2023-12-24T10:00:00.000Z' };
    answer = ({ url }) =>
      url.includes('cursor=next')
        ? { status: 200, body: { data: [older], cursor: null, isLastPage: true } }
        : { status: 200, body: firstPage };
    renderPage();

    expect(screen.getByRole('heading', { name: 'Manage products' })).toBeTruthy();
    const row = await screen.findByRole('row', { name: /Oyster 565/ });
    expect(within(row).getByText('Yachts')).toBeTruthy();
    expect(within(row).getByText('2.500.000,50 €')).toBeTruthy();
    expect(within(row).getByText('01/02/2024')).toBeTruthy();
    expect(calls[0]).toMatchObject({ method: 'GET', url: '/api/admin/products?limit=10' });

    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await screen.findByRole('row', { name: /Folkboat/ });
    expect(calls[1]!.url).toBe('/api/admin/products?limit=10&cursor=next');
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });

  it('adds a product with the price in exact cents, puts it on top, and opens an empty form next time', async () => {
    const created: Product = {
      ...yacht,
      id: '44444444-4444-4444-8444-444444444444',
      name: 'Swan 48',
      priceCents: 119_999,
      createdAt: '2024-04-01T10:00:00.000Z',
    };
    answer = ({ method }) => (method === 'POST' ? { status: 201, body: created } : { status: 200, body: firstPage });
    renderPage();
    await screen.findByRole('row', { name: /Contessa 32/ });

    fireEvent.click(screen.getByRole('button', { name: 'Add new product' }));
    const dialog = screen.getByRole('dialog', { name: 'Add new product' });
    expect((within(dialog).getByLabelText('Category') as HTMLSelectElement).value).toBe('sailing-boats');
    expect((within(dialog).getByLabelText('Price') as HTMLInputElement).value).toBe('0');
    expect(within(dialog).getByLabelText('Image URL').getAttribute('type')).toBe('url');

    fireEvent.change(within(dialog).getByLabelText('Category'), { target: { value: 'yachts' } });
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'Swan 48' } });
    fireEvent.change(within(dialog).getByLabelText('Image URL'), { target: { value: 'https://images.example.test/swan.jpg' } });
    fireEvent.change(within(dialog).getByLabelText('Price'), { target: { value: '1199.99' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add product' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.at(-1)).toEqual({
      method: 'POST',
      url: '/api/admin/products',
      body: {
        category: 'yachts',
        name: 'Swan 48',
        thumbnailUrl: 'https://images.example.test/swan.jpg',
        priceCents: 119_999,
        stock: null,
        descriptionHtml: '',
        specs: EMPTY_BOAT_SPECS,
        seaTrials: false,
      },
    });
    const rows = screen.getAllByRole('row').slice(1);
    expect(rows[0]!.textContent).toContain('Swan 48');
    expect(screen.getByText('“Swan 48” was added.').getAttribute('role')).toBe('status');

    fireEvent.click(screen.getByRole('button', { name: 'Add new product' }));
    const again = screen.getByRole('dialog', { name: 'Add new product' });
    expect((within(again).getByLabelText('Name') as HTMLInputElement).value).toBe('');
    expect((within(again).getByLabelText('Category') as HTMLSelectElement).value).toBe('sailing-boats');
    expect((within(again).getByLabelText('Price') as HTMLInputElement).value).toBe('0');
  });

  it('keeps the form open and lists what the API refused', async () => {
    const details = ['Name must be 3 to 120 characters long', 'Price must be more than 0,00 €'];
    answer = ({ method }) =>
      method === 'POST'
        ? { status: 400, body: { error: { code: 'VALIDATION', message: 'Please correct the product', details } } }
        : { status: 200, body: firstPage };
    renderPage();
    await screen.findByRole('row', { name: /Contessa 32/ });
    fireEvent.click(screen.getByRole('button', { name: 'Add new product' }));
    const dialog = screen.getByRole('dialog', { name: 'Add new product' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add product' }));

    const alert = await within(dialog).findByRole('alert');
    expect(
      within(alert)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(details);
    expect(screen.getByRole('dialog', { name: 'Add new product' })).toBe(dialog);
  });

  it('refuses a price with more than two decimals without calling the API', async () => {
    answer = () => ({ status: 200, body: firstPage });
    renderPage();
    await screen.findByRole('row', { name: /Contessa 32/ });
    fireEvent.click(screen.getByRole('button', { name: 'Add new product' }));
    const dialog = screen.getByRole('dialog', { name: 'Add new product' });
    fireEvent.change(within(dialog).getByLabelText('Price'), { target: { value: '10.999' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add product' }));

    expect(within(dialog).getByRole('alert').textContent).toContain('at most 2 decimals');
    expect(calls.filter((call) => call.method === 'POST')).toEqual([]);
  });

  it('edits a product in the same form, filled in, and updates its row', async () => {
    answer = ({ method, body }) =>
      method === 'PUT' ? { status: 200, body: { ...sloop, ...(body as object) } } : { status: 200, body: firstPage };
    renderPage();
    const row = await screen.findByRole('row', { name: /Contessa 32/ });
    fireEvent.click(within(row).getByRole('button', { name: 'Edit Contessa 32' }));

    const dialog = screen.getByRole('dialog', { name: 'Edit product' });
    expect((within(dialog).getByLabelText('Name') as HTMLInputElement).value).toBe('Contessa 32');
    expect((within(dialog).getByLabelText('Image URL') as HTMLInputElement).value).toBe('/api/images/sailing-1.svg');
    expect((within(dialog).getByLabelText('Price') as HTMLInputElement).value).toBe('45000');
    fireEvent.change(within(dialog).getByLabelText('Price'), { target: { value: '43999.90' } });
    const seaTrials = within(dialog).getByLabelText(/Sea trials/) as HTMLInputElement;
    expect(seaTrials.checked).toBe(false);
    fireEvent.click(seaTrials);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save changes' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.at(-1)).toMatchObject({
      method: 'PUT',
      url: `/api/admin/products/${sloop.id}`,
      body: { priceCents: 4_399_990, name: 'Contessa 32', seaTrials: true },
    });
    expect(within(screen.getByRole('row', { name: /Contessa 32/ })).getByText('43.999,90 €')).toBeTruthy();
  });

  it('sets the stock in the form: empty is built to order, a used boat has 1, and a fraction is refused before the API', async () => {
    answer = ({ method, body }) =>
      method === 'PUT' ? { status: 200, body: { ...sloop, ...(body as object) } } : { status: 200, body: firstPage };
    renderPage();
    fireEvent.click(within(await screen.findByRole('row', { name: /Oyster 565/ })).getByRole('button', { name: 'Edit Oyster 565' }));
    const yachtForm = screen.getByRole('dialog', { name: 'Edit product' });
    expect((within(yachtForm).getByLabelText('Stock') as HTMLInputElement).value).toBe('');
    expect(within(yachtForm).getByText(/Leave empty for a model built to order/)).toBeTruthy();
    fireEvent.click(within(yachtForm).getByRole('button', { name: 'Cancel' }));

    fireEvent.click(within(screen.getByRole('row', { name: /Contessa 32/ })).getByRole('button', { name: 'Edit Contessa 32' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit product' });
    const stock = within(dialog).getByLabelText('Stock') as HTMLInputElement;
    expect(stock.value).toBe('1');

    fireEvent.change(stock, { target: { value: '1.5' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    expect(within(dialog).getByRole('alert').textContent).toContain(
      'Stock must be a whole number of 0 or more, or empty for built to order',
    );
    expect(calls.filter((call) => call.method === 'PUT')).toEqual([]);

    fireEvent.change(stock, { target: { value: '' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.at(-1)).toMatchObject({ method: 'PUT', body: { stock: null } });
  });

  it('deletes only after a confirmation that names the product', async () => {
    answer = ({ method }) => (method === 'DELETE' ? { status: 204 } : { status: 200, body: firstPage });
    renderPage();
    const row = await screen.findByRole('row', { name: /Oyster 565/ });
    fireEvent.click(within(row).getByRole('button', { name: 'Delete Oyster 565' }));

    const confirm = screen.getByRole('dialog', { name: 'Delete “Oyster 565”?' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(calls.filter((call) => call.method === 'DELETE')).toEqual([]);

    fireEvent.click(within(row).getByRole('button', { name: 'Delete Oyster 565' }));
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete product' }));
    await waitFor(() => expect(screen.queryByRole('row', { name: /Oyster 565/ })).toBeNull());
    expect(calls.at(-1)).toMatchObject({ method: 'DELETE', url: `/api/admin/products/${yacht.id}` });
    expect(screen.getByRole('row', { name: /Contessa 32/ })).toBeTruthy();
  });
});
