import { cleanTestStorage, useTestStorageEngine } from '@nanostores/persistent';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Product } from '@boatshop/contract';
import { $cart, setSessionUser } from '@boatshop/state';
import Home from './home';
import ProductPage from './product';
import Search from './search';

function product(n: number, overrides: Partial<Product> = {}): Product {
  return {
    id: `p${n}`,
    name: `Boat ${n}`,
    thumbnailUrl: `/api/images/boat-${n}.svg`,
    priceCents: 1_000_000 + n,
    descriptionHtml: '<p>A boat</p>',
    category: 'yachts',
    createdAt: '2024-11-21T00:00:00.000Z',
    stock: null,
    availability: 'in_stock',
    ...overrides,
  };
}

const EMPTY_SEARCH = {
  data: [],
  cursor: null,
  isLastPage: true,
  total: 0,
  facets: {
    category: [],
    builder: [],
    condition: [],
    country: [],
    cabins: [],
    vatPaid: 0,
    price: { min: null, max: null },
    length: { min: null, max: null },
    year: { min: null, max: null },
  },
};

function json(body: unknown, status = 200) {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

let fetchMock: ReturnType<typeof vi.fn<(input: string) => Promise<Response>>>;

function requestedUrls() {
  return fetchMock.mock.calls.map(([input]) => new URL(input, 'http://shop.test'));
}

beforeAll(() => {
  useTestStorageEngine();
});

beforeEach(() => {
  fetchMock = vi.fn<(input: string) => Promise<Response>>();
  // The facet panel asks the search API for its counts on its own; these tests look at the list.
  vi.stubGlobal('fetch', (input: string) =>
    String(input).includes('/api/products/search') ? Promise.resolve(json(EMPTY_SEARCH)) : fetchMock(input),
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  cleanTestStorage();
  $cart.set([]);
  setSessionUser(null);
});

function Where() {
  const location = useLocation();
  return <output aria-label="location">{location.pathname + location.search}</output>;
}

function renderAt(url: string) {
  return render(
    <MemoryRouter initialEntries={[url]}>
      <Routes>
        <Route path="/" element={<Home />} />
        <Route path="/search" element={<Search />} />
        <Route path="/search/:filterType" element={<Search />} />
        <Route path="/product/:productID" element={<ProductPage />} />
        <Route path="/cart" element={<h1>Cart</h1>} />
      </Routes>
      <Where />
    </MemoryRouter>,
  );
}

describe('Home page', () => {
  it('welcomes a signed-in shopper and offers the two category tiles', () => {
    setSessionUser({
      id: 'u1',
      displayName: 'Sandy Shopper',
      email: 'shopper@example.com',
      userRoles: ['user'],
      emailVerified: true,
      hasPassword: true,
    });
    renderAt('/');

    expect(screen.getByRole('heading', { name: 'Welcome aboard, Sandy Shopper' })).toBeTruthy();
    const sailing = screen.getByRole('link', { name: 'Sailing boats' });
    expect(sailing.getAttribute('href')).toBe('/search/sailing-boats');
    expect(sailing.querySelector('img')?.getAttribute('src')).toBe('/api/images/tile-sailing-boats.svg');
    expect(screen.getByRole('link', { name: 'Yachts' }).getAttribute('href')).toBe('/search/yachts');
  });
});

describe('Search page', () => {
  it('asks the API for the category and search text of the URL and appends the next page with Load More', async () => {
    fetchMock
      .mockResolvedValueOnce(json({ data: [1, 2, 3, 4, 5, 6].map((n) => product(n)), cursor: 'c1', isLastPage: false }))
      .mockResolvedValueOnce(json({ data: [product(7)], cursor: null, isLastPage: true }));
    renderAt('/search/yachts?q=teak');

    expect(screen.getByRole('heading', { name: 'Browse products' })).toBeTruthy();
    expect(await screen.findByRole('img', { name: 'Boat 6' })).toBeTruthy();
    // The first card's picture is the page's largest paint on a phone: fetched first, the rest not.
    expect(screen.getByRole('img', { name: 'Boat 1' }).getAttribute('fetchpriority')).toBe('high');
    expect(screen.getByRole('img', { name: 'Boat 2' }).getAttribute('fetchpriority')).toBeNull();
    const [first] = requestedUrls();
    expect(first?.pathname).toBe('/api/products');
    expect(first?.searchParams.get('filterType')).toBe('yachts');
    expect(first?.searchParams.get('q')).toBe('teak');
    expect((screen.getByLabelText('Search boats') as HTMLInputElement).value).toBe('teak');

    const loadMore = screen.getByRole('link', { name: 'Load More' });
    // A crawler follows the link to the next page; the shopper's click stays on this one.
    expect(loadMore.getAttribute('href')).toBe('?q=teak&cursor=c1');
    expect(loadMore.getAttribute('rel')).toBe('next');
    fireEvent.click(loadMore);

    expect(await screen.findByRole('img', { name: 'Boat 7' })).toBeTruthy();
    expect(screen.getAllByRole('button', { name: 'Add to cart' })).toHaveLength(7);
    expect(requestedUrls()[1]?.searchParams.get('cursor')).toBe('c1');
    expect(screen.getByLabelText('location').textContent).toBe('/search/yachts?q=teak');
    expect(screen.queryByRole('link', { name: 'Load More' })).toBeNull();
  });

  it('starts the list at the cursor of a followed Load More link', async () => {
    fetchMock.mockResolvedValueOnce(json({ data: [product(7)], cursor: null, isLastPage: true }));
    renderAt('/search?cursor=c1');

    expect(await screen.findByRole('img', { name: 'Boat 7' })).toBeTruthy();
    expect(requestedUrls()[0]?.searchParams.get('cursor')).toBe('c1');
  });

  it('keeps the search text in the URL and the category filter keeps the search', async () => {
    fetchMock.mockImplementation(async () => json({ data: [product(1)], cursor: null, isLastPage: true }));
    renderAt('/search');
    await screen.findByRole('img', { name: 'Boat 1' });

    fireEvent.change(screen.getByLabelText('Search boats'), { target: { value: 'ketch' } });
    fireEvent.submit(screen.getByRole('search'));

    expect(screen.getByLabelText('location').textContent).toBe('/search?q=ketch');
    fireEvent.click(screen.getByRole('link', { name: 'Sailing boats' }));
    expect(screen.getByLabelText('location').textContent).toBe('/search/sailing-boats?q=ketch');
    await screen.findByRole('img', { name: 'Boat 1' });
    expect(requestedUrls().at(-1)?.searchParams.get('filterType')).toBe('sailing-boats');
  });

  it("says 'No search results.' when the API finds nothing", async () => {
    fetchMock.mockResolvedValueOnce(json({ data: [], cursor: null, isLastPage: true }));
    renderAt('/search?q=submarine');

    expect(await screen.findByText('No search results.')).toBeTruthy();
  });

  it('adds a card to the cart and goes to /cart', async () => {
    fetchMock.mockResolvedValueOnce(json({ data: [product(1)], cursor: null, isLastPage: true }));
    renderAt('/search');

    fireEvent.click(await screen.findByRole('button', { name: 'Add to cart' }));

    expect(screen.getByLabelText('location').textContent).toBe('/cart');
    expect($cart.get()).toEqual([
      { productId: 'p1', name: 'Boat 1', thumbnailUrl: '/api/images/boat-1.svg', priceCents: 1_000_001, quantity: 1 },
    ]);
  });
});

describe('Product page', () => {
  it('shows the product with its price and a description stripped of script', async () => {
    fetchMock.mockResolvedValueOnce(
      json(product(42, { name: 'Ketch 40', priceCents: 4_999_950, descriptionHtml: '<p>Teak deck</p><img src=x onerror="alert(1)">' })),
    );
    const { container } = renderAt('/product/42');

    expect(await screen.findByRole('heading', { name: 'Ketch 40' })).toBeTruthy();
    expect(requestedUrls()[0]?.pathname).toBe('/api/products/42');
    expect(screen.getByText('49.999,50 €')).toBeTruthy();
    expect(screen.getByRole('img', { name: 'Ketch 40' }).getAttribute('fetchpriority')).toBe('high');
    expect(screen.getByText('Teak deck')).toBeTruthy();
    expect(container.querySelector('[onerror]')).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Add to cart' }));
    expect(screen.getByLabelText('location').textContent).toBe('/cart');
    expect($cart.get().map((item) => item.productId)).toEqual(['p42']);
  });

  it("says 'Product not found' when the API answers 404", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    fetchMock.mockResolvedValueOnce(json({ error: { code: 'PRODUCT_NOT_FOUND', message: 'Product not found' } }, 404));
    renderAt('/product/unknown');

    expect(await screen.findByRole('heading', { name: 'Product not found' })).toBeTruthy();
  });
});

describe('Stock on cards and the product page', () => {
  const addButtonOf = (name: string) =>
    screen
      .getAllByRole('listitem')
      .find((card) => card.textContent?.includes(name))!
      .querySelector('button')!;

  it('says Sold, Reserved or how many are left when few, and offers Add to cart only for what can be bought', async () => {
    fetchMock.mockResolvedValueOnce(
      json({
        data: [
          product(1, { name: 'Gone Sloop', stock: 0, availability: 'sold_out' }),
          product(2, { name: 'Taken Ketch', stock: 0, availability: 'reserved' }),
          product(3, { name: 'Last Yawl', stock: 1, availability: 'in_stock' }),
          product(4, { name: 'Fleet Dinghy', stock: 4, availability: 'in_stock' }),
          product(5, { name: 'Model Cruiser', stock: null, availability: 'in_stock' }),
        ],
        cursor: null,
        isLastPage: true,
      }),
    );
    renderAt('/search');
    await screen.findByRole('img', { name: 'Gone Sloop' });

    const cardText = (name: string) => screen.getAllByRole('listitem').find((card) => card.textContent?.includes(name))!.textContent;
    expect(cardText('Gone Sloop')).toContain('Sold');
    expect(cardText('Taken Ketch')).toContain('Reserved');
    expect(cardText('Last Yawl')).toContain('Only 1 left');
    expect(cardText('Fleet Dinghy')).not.toMatch(/left|Sold|Reserved/);
    expect(cardText('Model Cruiser')).not.toMatch(/left|Sold|Reserved/);
    expect(['Gone Sloop', 'Taken Ketch', 'Last Yawl', 'Fleet Dinghy', 'Model Cruiser'].map((name) => addButtonOf(name).disabled)).toEqual([
      true,
      true,
      false,
      false,
      false,
    ]);
  });

  it('hides sold boats with a checkbox kept in the URL (?available=1) and asks the API for available boats only', async () => {
    fetchMock.mockImplementation(async () => json({ data: [product(1)], cursor: null, isLastPage: true }));
    renderAt('/search/yachts?q=teak');
    await screen.findByRole('img', { name: 'Boat 1' });
    expect(requestedUrls()[0]?.searchParams.has('available')).toBe(false);

    fireEvent.click(screen.getByRole('checkbox', { name: 'Hide sold boats' }));

    expect(screen.getByLabelText('location').textContent).toBe('/search/yachts?q=teak&available=1');
    await vi.waitFor(() => expect(requestedUrls().at(-1)?.searchParams.get('available')).toBe('true'));
    expect(requestedUrls().at(-1)?.searchParams.get('q')).toBe('teak');
    fireEvent.click(screen.getByRole('link', { name: 'Sailing boats' }));
    expect(screen.getByLabelText('location').textContent).toBe('/search/sailing-boats?q=teak&available=1');
    expect((screen.getByRole('checkbox', { name: 'Hide sold boats' }) as HTMLInputElement).checked).toBe(true);
  });

  it('shows a sold boat on its page with Add to cart disabled', async () => {
    fetchMock.mockResolvedValueOnce(json(product(42, { name: 'Nordvik 27 Classic', stock: 0, availability: 'sold_out' })));
    renderAt('/product/42');

    expect(await screen.findByRole('heading', { name: 'Nordvik 27 Classic' })).toBeTruthy();
    expect(screen.getByText('Sold')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Add to cart' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('does not add a one-off boat twice: with its last unit in the cart, Add to cart is disabled', async () => {
    const boat = product(7, { name: 'Nordvik 27 Classic', stock: 1, availability: 'in_stock' });
    fetchMock.mockResolvedValueOnce(json(boat));
    renderAt('/product/7');

    expect(await screen.findByText('Only 1 left')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Add to cart' }));

    expect($cart.get()).toEqual([expect.objectContaining({ productId: 'p7', quantity: 1 })]);
    cleanup();
    fetchMock.mockResolvedValueOnce(json(boat));
    renderAt('/product/7');
    expect(((await screen.findByRole('button', { name: 'Add to cart' })) as HTMLButtonElement).disabled).toBe(true);
  });
});
