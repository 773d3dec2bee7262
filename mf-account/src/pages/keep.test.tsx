import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import type { Favourite, SavedSearch } from '@boatshop/contract';
import { EMPTY_BOAT_SPECS } from '@boatshop/contract/constants';
import { fetchMock, json, stubApiInEveryTest } from '../test/api-stub';
import Favourites from './favourites';
import SavedSearches from './saved-searches';
import Unsubscribe from './unsubscribe';

stubApiInEveryTest();

const BOAT_ID = '22222222-0000-4000-8000-000000000001';
const favourite: Favourite = {
  addedAt: '2026-11-26T10:00:00.000Z',
  product: {
    id: BOAT_ID,
    name: 'Najad 355',
    thumbnailUrl: '/api/images/najad.svg',
    priceCents: 12_500_000,
    descriptionHtml: '',
    category: 'sailing-boats',
    createdAt: '2026-11-20T10:00:00.000Z',
    stock: 1,
    availability: 'in_stock',
    specs: EMPTY_BOAT_SPECS,
  },
};
const SEARCH_ID = '33333333-0000-4000-8000-000000000001';
const search: SavedSearch = {
  id: SEARCH_ID,
  name: 'Big yachts',
  path: '/search/yachts?lengthMin=15',
  query: { category: 'yachts', lengthMin: 15 },
  alerts: true,
  createdAt: '2026-11-24T10:00:00.000Z',
  lastAlertedAt: null,
};

const at = (url: string, node: React.ReactNode) => render(<MemoryRouter initialEntries={[url]}>{node}</MemoryRouter>);

describe('the favourites page', () => {
  it("lists the shopper's boats with price and date, and Remove deletes one", async () => {
    fetchMock.mockImplementation((url, init) =>
      init?.method === 'DELETE' ? Promise.resolve(new Response(null, { status: 204 })) : json(200, { favourites: [favourite] }),
    );
    at('/account/favourites', <Favourites />);
    const link = await screen.findByRole('link', { name: 'Najad 355' });
    expect(link.getAttribute('href')).toBe(`/product/${BOAT_ID}`);
    expect(screen.getByText('125.000,00 €')).toBeTruthy();
    expect(screen.getByText('26/11/2026')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Remove Najad 355 from favourites' }));
    expect(await screen.findByText(/You keep no favourites yet/)).toBeTruthy();
    expect(
      fetchMock.mock.calls.some(([url, init]) => init?.method === 'DELETE' && url.endsWith(`/api/account/favourites/${BOAT_ID}`)),
    ).toBe(true);
  });
});

describe('the saved searches page', () => {
  it('lists each search with its alerts and link back to the search, and deletes one', async () => {
    fetchMock.mockImplementation((url, init) =>
      init?.method === 'DELETE' ? Promise.resolve(new Response(null, { status: 204 })) : json(200, { savedSearches: [search] }),
    );
    at('/account/saved-searches', <SavedSearches />);
    expect((await screen.findByRole('link', { name: 'Big yachts' })).getAttribute('href')).toBe('/search/yachts?lengthMin=15');
    expect(screen.getByText('Daily')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Delete the saved search Big yachts' }));
    expect(await screen.findByText(/You have no saved searches yet/)).toBeTruthy();
  });
});

describe('the unsubscribe page', () => {
  it("stops the search's alerts with the link's token, without signing in", async () => {
    fetchMock.mockImplementation((url) =>
      url.includes('/api/saved-searches/unsubscribe') ? json(200, { name: 'Big yachts' }) : json(200, { user: null }),
    );
    at('/alerts/unsubscribe?token=abc.def', <Unsubscribe />);
    expect(await screen.findByText('You will get no more e-mails for the saved search “Big yachts”.')).toBeTruthy();
    const call = fetchMock.mock.calls.find(([url]) => url.includes('/unsubscribe'))!;
    expect(call[0]).toContain('token=abc.def');
    expect(call[1].method).toBe('POST');
  });

  it('says so when the link was altered', async () => {
    fetchMock.mockImplementation((url) =>
      url.includes('/unsubscribe')
        ? json(400, { error: { code: 'INVALID_TOKEN', message: 'This unsubscribe link is not valid.' } })
        : json(200, { user: null }),
    );
    at('/alerts/unsubscribe?token=forged', <Unsubscribe />);
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('This unsubscribe link is not valid.'));
  });
});
