import { cleanTestStorage, useTestStorageEngine } from '@nanostores/persistent';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Product } from '@boatshop/contract';
import { EMPTY_BOAT_SPECS } from '@boatshop/contract/constants';
import { setSessionUser } from '@boatshop/state';
import { $compare, $compareNotice, COMPARE_FULL_MESSAGE } from '../keep/compare';
import { $favourites, NO_FAVOURITES } from '../keep/favourites';
import Compare from '../pages/compare';
import { CompareButton } from './compare-button';
import { CompareTray } from './compare-tray';
import { FavouriteButton } from './favourite-button';
import { SaveSearch } from './save-search';

const id = (n: number) => `00000000-0000-4000-8000-00000000000${n}`;

function boat(n: number, specs: Partial<Product['specs']> = {}): Product {
  return {
    id: id(n),
    name: `Boat ${n}`,
    thumbnailUrl: `/api/images/boat-${n}.svg`,
    priceCents: 10_000_000 * n,
    descriptionHtml: '',
    category: 'yachts',
    createdAt: '2026-11-20T00:00:00.000Z',
    stock: 1,
    availability: 'in_stock',
    specs: { ...EMPTY_BOAT_SPECS, ...specs },
  };
}

const SHOPPER = { id: 'u1', displayName: 'Sandy', email: 's@example.com', userRoles: ['user'], emailVerified: true, hasPassword: true };

const json = (body: unknown, status = 200) => Promise.resolve(new Response(body === null ? null : JSON.stringify(body), { status }));

let fetchMock: ReturnType<typeof vi.fn<(url: string, init?: RequestInit) => Promise<Response>>>;

beforeAll(() => useTestStorageEngine());

beforeEach(() => {
  document.cookie = 'csrf=t; path=/';
  fetchMock = vi.fn();
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  cleanTestStorage();
  $compare.set([]);
  $compareNotice.set(null);
  setSessionUser(null);
  $favourites.set(NO_FAVOURITES);
});

const inRouter = (node: React.ReactNode, url = '/') => (
  <MemoryRouter initialEntries={[url]}>
    <Routes>
      <Route path="*" element={node} />
    </Routes>
  </MemoryRouter>
);

describe('the favourite heart', () => {
  it("shows the shopper's favourite pressed and keeps another with PUT, a toggle button with its pressed state", async () => {
    setSessionUser(SHOPPER);
    fetchMock.mockImplementation((url, init) => {
      if (url.endsWith('/api/account/favourites/ids')) return json({ productIds: [id(1)] });
      if (init?.method === 'PUT') return json(null, 204);
      return json({}, 500);
    });
    render(
      inRouter(
        <>
          <FavouriteButton product={boat(1)} />
          <FavouriteButton product={boat(2)} />
        </>,
      ),
    );
    const first = screen.getByRole('button', { name: 'Favourite: Boat 1' });
    await waitFor(() => expect(first.getAttribute('aria-pressed')).toBe('true'));
    const second = screen.getByRole('button', { name: 'Favourite: Boat 2' });
    expect(second.getAttribute('aria-pressed')).toBe('false');
    fireEvent.click(second);
    expect(second.getAttribute('aria-pressed')).toBe('true');
    await waitFor(() =>
      expect(fetchMock.mock.calls.some(([url, init]) => init?.method === 'PUT' && url.endsWith(`/api/account/favourites/${id(2)}`))).toBe(
        true,
      ),
    );
    // One request for the ids, however many hearts the page has.
    expect(fetchMock.mock.calls.filter(([url]) => url.endsWith('/ids'))).toHaveLength(1);
  });

  it('goes back and says so when the API refuses', async () => {
    setSessionUser(SHOPPER);
    fetchMock.mockImplementation((url) =>
      url.endsWith('/ids') ? json({ productIds: [] }) : json({ error: { code: 'X', message: 'no' } }, 500),
    );
    render(inRouter(<FavouriteButton product={boat(3)} />));
    const heart = screen.getByRole('button', { name: 'Favourite: Boat 3' });
    await waitFor(() => expect(fetchMock).toHaveBeenCalled());
    fireEvent.click(heart);
    expect(await screen.findByRole('alert')).toHaveProperty('textContent', 'This boat could not be added to your favourites.');
    expect(heart.getAttribute('aria-pressed')).toBe('false');
  });

  it("never shows a previous account's hearts to the next one", async () => {
    $favourites.set({ userId: 'u1', ids: new Set([id(1)]), error: null });
    setSessionUser({ ...SHOPPER, id: 'u2' });
    fetchMock.mockImplementation(() => json({ productIds: [] }));
    render(inRouter(<FavouriteButton product={boat(1)} />));
    const heart = screen.getByRole('button', { name: 'Favourite: Boat 1' });
    expect(heart.getAttribute('aria-pressed')).toBe('false');
    await waitFor(() => expect($favourites.get().userId).toBe('u2'));
    expect(heart.getAttribute('aria-pressed')).toBe('false');
  });

  it('invites a visitor to log in instead of asking the API', () => {
    setSessionUser(null);
    render(inRouter(<FavouriteButton product={boat(1)} />));
    fireEvent.click(screen.getByRole('button', { name: 'Favourite: Boat 1' }));
    expect(screen.getByRole('status').textContent).toBe('Log in to keep your favourites.');
    expect(screen.getByRole('link', { name: 'Log in' }).getAttribute('href')).toBe('/login');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("is rendered on the server unpressed and disabled, whoever's favourites the process holds", () => {
    setSessionUser(SHOPPER);
    $favourites.set({ userId: 'u1', ids: new Set([id(1)]), error: null });
    $compare.set([{ id: id(1), name: 'Boat 1' }]);
    const html = renderToString(
      inRouter(
        <>
          <FavouriteButton product={boat(1)} />
          <CompareButton product={boat(1)} />
        </>,
      ),
    );
    expect(html).toContain('aria-pressed="false"');
    expect(html).not.toContain('aria-pressed="true"');
    expect(html).toContain('disabled');
  });
});

describe('compare', () => {
  it('takes three boats and says so when a fourth is added; the tray links to the compare page', () => {
    render(
      inRouter(
        <>
          {[1, 2, 3, 4].map((n) => (
            <CompareButton key={n} product={boat(n)} />
          ))}
          <CompareTray />
        </>,
      ),
    );
    for (const n of [1, 2, 3, 4]) fireEvent.click(screen.getByRole('button', { name: `Compare: Boat ${n}` }));
    expect(screen.getByRole('button', { name: 'Compare: Boat 3' }).getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByRole('button', { name: 'Compare: Boat 4' }).getAttribute('aria-pressed')).toBe('false');
    expect(screen.getByRole('status').textContent).toBe(COMPARE_FULL_MESSAGE);
    expect(screen.getByRole('link', { name: 'Compare side by side' }).getAttribute('href')).toBe(`/compare?ids=${id(1)},${id(2)},${id(3)}`);

    fireEvent.click(screen.getByRole('button', { name: 'Remove Boat 2 from the comparison' }));
    expect(screen.getByRole('status').textContent).toBe('');
    fireEvent.click(screen.getByRole('button', { name: 'Compare: Boat 4' }));
    expect($compare.get().map((item) => item.name)).toEqual(['Boat 1', 'Boat 3', 'Boat 4']);
  });

  it('sets the boats of the address side by side, every specification any of them has in one table', async () => {
    fetchMock.mockImplementation((url) =>
      url.includes('/api/products/by-ids')
        ? json({
            data: [boat(2, { builder: 'Swan', lengthM: 14.6, cabins: 3 }), boat(1, { builder: 'Najad', yearBuilt: 2019, lengthM: 12.2 })],
          })
        : json({}, 404),
    );
    render(inRouter(<Compare />, `/compare?ids=${id(1)},${id(2)},not-an-id`));
    const table = await screen.findByRole('table');
    const rows = [...table.querySelectorAll('tr')].map((row) => [...row.children].map((cell) => cell.textContent?.trim()));
    expect(rows[0]![1]).toContain('Boat 1');
    expect(rows[0]![2]).toContain('Boat 2');
    expect(rows.slice(2)).toEqual([
      ['Builder', 'Najad', 'Swan'],
      ['Year built', '2019', '–'],
      ['Length overall', '12.20 m', '14.60 m'],
      ['Cabins', '–', '3'],
    ]);
    expect(String(fetchMock.mock.calls[0]![0])).toContain(`ids=${encodeURIComponent(`${id(1)},${id(2)}`)}`);
  });
});

describe('save this search', () => {
  it('saves the choices without order or page, the address without its cursor, and the alerts the shopper agreed to', async () => {
    setSessionUser(SHOPPER);
    fetchMock.mockImplementation(() => json({}, 201));
    render(
      inRouter(
        <SaveSearch query={{ category: 'yachts', lengthMin: 15, sort: 'price-asc', limit: 6 }} suggestedName="Yachts" />,
        '/search/yachts?lengthMin=15&sort=price-asc&cursor=abc',
      ),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Save this search' }));
    fireEvent.change(screen.getByLabelText('Name of the search'), { target: { value: ' Big yachts ' } });
    expect((screen.getByLabelText('E-mail me when a boat matching my saved searches comes in.') as HTMLInputElement).checked).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Save search' }));
    expect(await screen.findByText(/Saved “Big yachts”\./)).toBeTruthy();
    const [url, init] = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST')!;
    expect(url).toMatch(/\/api\/account\/saved-searches$/);
    expect(JSON.parse(String(init!.body))).toEqual({
      name: 'Big yachts',
      path: '/search/yachts?lengthMin=15&sort=price-asc',
      query: { category: 'yachts', lengthMin: 15 },
      alerts: true,
    });
  });

  it('invites a visitor to log in', () => {
    setSessionUser(null);
    render(inRouter(<SaveSearch query={{ sort: 'newest', limit: 6 }} suggestedName="Boats" />));
    expect(screen.getByRole('link', { name: 'Log in' }).getAttribute('href')).toBe('/login');
    expect(screen.queryByRole('button', { name: 'Save this search' })).toBeNull();
  });
});
