import { cleanStores, keepMount } from 'nanostores';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Product } from '@boatshop/contract';
import { $listing, leaveListing, listingKey, loadListing, loadMoreProducts, type ListingQuery } from './listing';

const boat = (n: number) => ({ id: `p${n}`, name: `Boat ${n}` }) as Product;
const page = (ns: number[], cursor: string | null) => ({ data: ns.map(boat), cursor, isLastPage: cursor === null });
const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const fetchMock = vi.fn<(url: string, init: RequestInit) => Promise<Response>>();
const asked = (call: number) => new URL(fetchMock.mock.calls[call]![0], 'http://shop.test');

/** An answer the test releases when it wants, to play with the order of events. */
function deferred() {
  let answer: (response: Response) => void = () => undefined;
  const promise = new Promise<Response>((resolve) => (answer = resolve));
  return { promise, answer };
}

const yachts: ListingQuery = { filterType: 'yachts', q: 'teak', hideSold: true, cursor: null };
const all: ListingQuery = { filterType: undefined, q: '', hideSold: false, cursor: null };

beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
  keepMount($listing);
});

afterEach(() => {
  leaveListing();
  fetchMock.mockReset();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  cleanStores($listing);
});

describe('the search list', () => {
  it("asks the API for the query's category, text, availability and start, and holds the page for that query", async () => {
    fetchMock.mockResolvedValueOnce(json(page([1, 2, 3, 4, 5, 6], 'c1')));
    const loading = loadListing({ ...yachts, cursor: 'c0' });

    expect($listing.get()).toMatchObject({ key: listingKey({ ...yachts, cursor: 'c0' }), status: 'loading', products: [] });
    await loading;

    expect(asked(0).pathname).toBe('/api/products');
    expect(Object.fromEntries(asked(0).searchParams)).toEqual({ filterType: 'yachts', q: 'teak', available: 'true', cursor: 'c0' });
    expect($listing.get()).toMatchObject({ status: 'ready', cursor: 'c1', isLastPage: false, loadingMore: false });
    expect($listing.get().products.map((product) => product.id)).toEqual(['p1', 'p2', 'p3', 'p4', 'p5', 'p6']);
  });

  it('leaves out what the query does not set', async () => {
    fetchMock.mockResolvedValueOnce(json(page([1], null)));
    await loadListing(all);
    expect([...asked(0).searchParams.keys()]).toEqual([]);
  });

  it('lists nothing for a category the shop does not have, without asking the API', async () => {
    await loadListing({ ...all, filterType: 'submarines' });

    expect(fetchMock).not.toHaveBeenCalled();
    expect($listing.get()).toMatchObject({ status: 'ready', products: [], isLastPage: true });
  });

  it('logs a failure and shows an empty list', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    fetchMock.mockResolvedValueOnce(json({ error: { code: 'INTERNAL', message: 'boom' } }, 500));
    await loadListing(all);

    expect($listing.get()).toMatchObject({ key: listingKey(all), status: 'ready', products: [], isLastPage: true });
    expect(console.error).toHaveBeenCalled();
  });

  it('appends the next page with Load More, asking from the cursor, until the last page', async () => {
    fetchMock.mockResolvedValueOnce(json(page([1, 2], 'c1'))).mockResolvedValueOnce(json(page([3], null)));
    await loadListing(yachts);
    const more = loadMoreProducts();
    expect($listing.get().loadingMore).toBe(true);
    await more;

    expect(asked(1).searchParams.get('cursor')).toBe('c1');
    expect(asked(1).searchParams.get('filterType')).toBe('yachts');
    expect($listing.get()).toMatchObject({ status: 'ready', isLastPage: true, cursor: null, loadingMore: false });
    expect($listing.get().products.map((product) => product.id)).toEqual(['p1', 'p2', 'p3']);

    await loadMoreProducts();
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('keeps the list when Load More fails, and asks only once while a Load More is under way', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const next = deferred();
    fetchMock.mockResolvedValueOnce(json(page([1], 'c1'))).mockReturnValueOnce(next.promise);
    await loadListing(all);

    const more = loadMoreProducts();
    await loadMoreProducts();
    expect(fetchMock).toHaveBeenCalledTimes(2);
    next.answer(json({ error: { code: 'INTERNAL', message: 'boom' } }, 500));
    await more;

    expect($listing.get()).toMatchObject({ status: 'ready', cursor: 'c1', isLastPage: false, loadingMore: false });
    expect($listing.get().products.map((product) => product.id)).toEqual(['p1']);
  });

  it('shows only the newest query: an older answer arriving late is ignored', async () => {
    const older = deferred();
    fetchMock.mockReturnValueOnce(older.promise).mockResolvedValueOnce(json(page([7], null)));
    const first = loadListing(all);
    await loadListing(yachts);
    older.answer(json(page([1], 'c1')));
    await first;

    expect($listing.get().key).toBe(listingKey(yachts));
    expect($listing.get().products.map((product) => product.id)).toEqual(['p7']);
  });

  it("does not append a Load More answer to another query's list", async () => {
    const more = deferred();
    fetchMock
      .mockResolvedValueOnce(json(page([1], 'c1')))
      .mockReturnValueOnce(more.promise)
      .mockResolvedValueOnce(json(page([7], null)));
    await loadListing(all);
    const appending = loadMoreProducts();
    await loadListing(yachts);
    more.answer(json(page([2], null)));
    await appending;

    expect($listing.get().products.map((product) => product.id)).toEqual(['p7']);
  });

  it('is dropped when the page is left, and an answer arriving afterwards does not bring it back', async () => {
    const late = deferred();
    fetchMock.mockReturnValueOnce(late.promise);
    const loading = loadListing(all);
    leaveListing();
    late.answer(json(page([1], null)));
    await loading;

    expect($listing.get()).toMatchObject({ key: null, status: 'idle', products: [] });
  });
});
