import { cleanTestStorage, useTestStorageEngine } from '@nanostores/persistent';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Product, SearchResult } from '@boatshop/contract';
import Search from '../pages/search';

const BOAT: Product = {
  id: 'p1',
  name: 'Belmare 64 Sport',
  thumbnailUrl: '/api/images/belmare.svg',
  priceCents: 289_000_000,
  descriptionHtml: '<p>A yacht</p>',
  category: 'yachts',
  createdAt: '2024-11-21T00:00:00.000Z',
  stock: 1,
  availability: 'in_stock',
};

function result(overrides: Partial<SearchResult> = {}): SearchResult {
  return {
    data: [BOAT],
    cursor: null,
    isLastPage: true,
    total: 1,
    facets: {
      category: [{ value: 'yachts', count: 1 }],
      builder: [
        { value: 'Belmare', count: 1 },
        { value: 'Seahaven', count: 0 },
      ],
      condition: [{ value: 'used', count: 1 }],
      country: [{ value: 'FR', count: 1 }],
      cabins: [{ value: '3', count: 1 }],
      vatPaid: 1,
      price: { min: 69_000_000, max: 289_000_000 },
      length: { min: 12.9, max: 40 },
      year: { min: 2016, max: 2021 },
    },
    ...overrides,
  };
}

let fetchMock: ReturnType<typeof vi.fn<(input: string) => Promise<Response>>>;
const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });

beforeAll(() => useTestStorageEngine());
beforeEach(() => {
  fetchMock = vi.fn<(input: string) => Promise<Response>>();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  cleanTestStorage();
});

/** Every history entry the router has made, by key. */
const entries = new Set<string>();

function Where() {
  const location = useLocation();
  entries.add(location.key);
  return <output aria-label="location">{location.pathname + location.search}</output>;
}

function renderAt(url: string) {
  return render(
    <MemoryRouter initialEntries={[url]}>
      <Routes>
        <Route path="/search" element={<Search />} />
        <Route path="/search/:filterType" element={<Search />} />
      </Routes>
      <Where />
    </MemoryRouter>,
  );
}

describe('the search facets', () => {
  it('ask the search API for the choices in the address, show the count, and a click adds a choice to the address', async () => {
    fetchMock.mockImplementation(async () => json(result()));
    renderAt('/search/yachts?lengthMin=15&lengthMax=25&yearMin=2018');

    expect(await screen.findByRole('img', { name: 'Belmare 64 Sport' })).toBeTruthy();
    expect(screen.getByText('1 boat').getAttribute('aria-live')).toBe('polite');
    const asked = new URL(fetchMock.mock.calls[0]![0], 'http://shop.test');
    expect(asked.pathname).toBe('/api/products/search');
    expect(Object.fromEntries(asked.searchParams)).toMatchObject({ category: 'yachts', lengthMin: '15', lengthMax: '25', yearMin: '2018' });

    fireEvent.click(screen.getByRole('checkbox', { name: 'Belmare (1)' }));
    expect(screen.getByLabelText('location').textContent).toBe('/search/yachts?lengthMin=15&lengthMax=25&yearMin=2018&builder=Belmare');
    const typed = await screen.findByRole('spinbutton', { name: 'From (m)' });
    fireEvent.change(typed, { target: { value: '18' } });
    // Enter commits the range and is kept from sending the page's form as well (cancelled).
    expect(fireEvent.keyDown(typed, { key: 'Enter' })).toBe(false);
    expect(screen.getByLabelText('location').textContent).toContain('lengthMin=18');
    // Leaving the field commits the same choice again: no second history entry for it.
    const made = entries.size;
    fireEvent.blur(typed);
    expect(entries.size).toBe(made);
  });

  it('offer "VAT paid" with its count, kept in the address as vatPaid=1 and sent to the API', async () => {
    fetchMock.mockImplementation(async () => json(result({ facets: { ...result().facets, vatPaid: 7 } })));
    renderAt('/search/yachts?yearMin=2018');

    const vatPaid = await screen.findByRole('checkbox', { name: 'VAT paid (7)' });
    fireEvent.click(vatPaid);
    expect(screen.getByLabelText('location').textContent).toBe('/search/yachts?yearMin=2018&vatPaid=1');
    await vi.waitFor(() => {
      const asked = fetchMock.mock.calls.map(([input]) => new URL(input, 'http://shop.test').searchParams);
      expect(asked.some((params) => params.get('vatPaid') === 'true' && params.get('yearMin') === '2018')).toBe(true);
    });
    expect((screen.getByRole('checkbox', { name: 'VAT paid (7)' }) as HTMLInputElement).checked).toBe(true);
    fireEvent.click(screen.getByRole('checkbox', { name: 'VAT paid (7)' }));
    expect(screen.getByLabelText('location').textContent).toBe('/search/yachts?yearMin=2018');
  });

  it('say which filter to relax when nothing matches, and keep the empty-list text', async () => {
    fetchMock.mockImplementation(async () =>
      json(
        result({
          data: [],
          total: 0,
          facets: { ...result().facets, builder: [{ value: 'Seahaven', count: 4 }], country: [{ value: 'FR', count: 1 }] },
        }),
      ),
    );
    renderAt('/search?builder=Belmare&country=FR');
    expect(await screen.findByText('No search results.')).toBeTruthy();
    expect(screen.getByText('Nothing matches every choice. Without the builder filter, 4 boats match.')).toBeTruthy();
  });

  it("belong to the page's GET form, which sends what the address holds: builders repeated as a form sends them read as one list", async () => {
    fetchMock.mockImplementation(async () => json(result()));
    renderAt('/search/yachts?q=teak&available=1&builder=Belmare&builder=Seahaven&sort=price-asc');

    const belmare = (await screen.findByRole('checkbox', { name: 'Belmare (1)' })) as HTMLInputElement;
    expect(belmare.checked).toBe(true);
    expect((screen.getByRole('checkbox', { name: 'Seahaven (0)' }) as HTMLInputElement).checked).toBe(true);
    const asked = new URL(fetchMock.mock.calls[0]![0], 'http://shop.test');
    expect(asked.searchParams.get('builder')).toBe('Belmare,Seahaven');

    const form = screen.getByRole('search') as HTMLFormElement;
    expect(form.getAttribute('method')).toBe('get');
    expect(form.getAttribute('action')).toBe('/search/yachts');
    // What the browser would send without JavaScript.
    const sent = new URLSearchParams([...new FormData(form)] as [string, string][]);
    expect(sent.get('q')).toBe('teak');
    expect(sent.get('available')).toBe('1');
    expect(sent.get('sort')).toBe('price-asc');
    expect(sent.getAll('builder')).toEqual(['Belmare', 'Seahaven']);
    expect(sent.get('condition')).toBe('');
    // A range without a limit sends an empty field, not its bound (a year bound would leave out boats without a year).
    expect([sent.get('yearMin'), sent.get('yearMax'), sent.get('priceMin')]).toEqual(['', '', '']);
    // Clear filters is a link to the list without facets.
    expect(screen.getByRole('link', { name: 'Clear filters' }).getAttribute('href')).toBe('/search/yachts?q=teak&available=1');
  });

  it('read the empty fields of an address a form sent as no choice, and leave them out of the next address', async () => {
    fetchMock.mockImplementation(async () => json(result()));
    renderAt('/search?q=&available=1&condition=&priceMin=&yearMin=&cabinsMin=&vatPaid=1');

    const vatPaid = await screen.findByRole('checkbox', { name: 'VAT paid (1)' });
    expect((screen.getByRole('radio', { name: 'Any' }) as HTMLInputElement).checked).toBe(true);
    expect((screen.getAllByRole('spinbutton', { name: 'From (year)' })[0] as HTMLInputElement).value).toBe('');
    fireEvent.click(vatPaid);
    expect(screen.getByLabelText('location').textContent).toBe('/search?available=1');
  });
});
