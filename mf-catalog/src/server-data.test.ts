import { cleanStores, keepMount } from 'nanostores';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Product } from '@boatshop/contract';
import { $searchSummary, loadSummary } from './catalog/facets';
import { $listing, leaveListing, listingKey, loadListing, loadMoreProducts } from './catalog/listing';
import { $product, leaveProduct, loadProduct } from './catalog/product';
import { holdPageData, paramsOf } from './server-data';

const boat = (n: number) => ({ id: `p${n}`, name: `Boat ${n}`, descriptionHtml: '<p>Teak.</p>' }) as Product;
const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
const fetchMock = vi.fn<(url: string, init: RequestInit) => Promise<Response>>();

beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
  keepMount($listing);
  keepMount($product);
  keepMount($searchSummary);
});
afterEach(() => {
  leaveListing();
  leaveProduct();
  fetchMock.mockReset();
  vi.unstubAllGlobals();
  cleanStores($listing, $product, $searchSummary);
});

describe('the data the shell’s server rendered a page with', () => {
  it('matches the catalogue’s routes without react-router (the shell’s shared subset has no matchPath)', () => {
    expect(paramsOf('./Product', '/product/p%207')).toEqual({ productID: 'p 7' });
    expect(paramsOf('./Search', '/search/yachts')).toEqual({ filterType: 'yachts' });
    expect(paramsOf('./Search', '/search')).toEqual({});
    expect(paramsOf('./Home', '/')).toEqual({});
    expect(paramsOf('./Product', '/product/')).toBeNull();
    expect(paramsOf('./Product', '/search/yachts')).toBeNull();
    expect(paramsOf('./Product', '/product/%E0%A4%A')).toBeNull();
  });

  it('holds the product as rendered, and the page’s first load of it asks the API nothing', async () => {
    expect(holdPageData('./Product', '/product/p1', { product: boat(1) }, false)).toBe(true);
    expect($product.get()).toEqual({ id: 'p1', state: { status: 'ready', product: boat(1), safeDescription: '<p>Teak.</p>' } });
    await loadProduct('p1');
    expect(fetchMock).not.toHaveBeenCalled();
    // Another product (a later navigation) is asked for as before.
    fetchMock.mockResolvedValueOnce(json(boat(2)));
    await loadProduct('p2');
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('holds the first page and its counts, asks neither again, and Load More goes on from the server’s cursor', async () => {
    const summary = {
      total: 9,
      facets: { category: [], builder: [], condition: [], country: [], cabins: [], vatPaid: 0, price: {}, length: {}, year: {} },
    };
    const first = { data: [1, 2, 3, 4, 5, 6].map(boat), cursor: 'c1', isLastPage: false };
    expect(holdPageData('./Search', '/search/yachts?q=teak', { listing: first, summary }, true)).toBe(true);
    const query = { filterType: 'yachts', q: 'teak', hideSold: false, cursor: null, facets: '' };
    await loadListing(query);
    await loadSummary(listingKey(query), { sort: 'newest', limit: 1 }, () => Promise.reject(new Error('asked again')));
    expect(fetchMock).not.toHaveBeenCalled();
    expect($searchSummary.get()).toMatchObject({ key: listingKey(query), total: 9 });

    fetchMock.mockResolvedValueOnce(json({ data: [7, 8, 9].map(boat), cursor: null, isLastPage: true }));
    await loadMoreProducts();
    expect(new URL(fetchMock.mock.calls[0]![0], 'http://shop.test').searchParams.get('cursor')).toBe('c1');
    expect($listing.get().products.map((product) => product.id)).toEqual(['p1', 'p2', 'p3', 'p4', 'p5', 'p6', 'p7', 'p8', 'p9']);
  });

  it('holds a faceted search the server read from the search API, builders sent by a form as repeated parameters', async () => {
    const summary = {
      total: 2,
      facets: { category: [], builder: [], condition: [], country: [], cabins: [], vatPaid: 0, price: {}, length: {}, year: {} },
    };
    const first = { data: [1].map(boat), cursor: 'c1', isLastPage: false };
    expect(holdPageData('./Search', '/search?builder=Aldren&builder=Riviera&sort=price-asc', { listing: first, summary }, true)).toBe(true);
    const query = { filterType: undefined, q: '', hideSold: false, cursor: null, facets: 'builder=Aldren%2CRiviera&sort=price-asc' };
    await loadListing(query);
    expect(fetchMock).not.toHaveBeenCalled();
    expect($searchSummary.get()).toMatchObject({ key: listingKey(query), total: 2 });

    // Load More asks the search API with the same choices, from the server's cursor.
    fetchMock.mockResolvedValueOnce(json({ data: [2].map(boat), cursor: null, isLastPage: true, ...summary }));
    await loadMoreProducts();
    const asked = new URL(fetchMock.mock.calls[0]![0], 'http://shop.test');
    expect(asked.pathname).toBe('/api/products/search');
    expect(asked.searchParams.get('builder')).toBe('Aldren,Riviera');
    expect(asked.searchParams.get('cursor')).toBe('c1');
    expect($listing.get().products.map((product) => product.id)).toEqual(['p1', 'p2']);
  });

  it('refuses data that does not fit the page: a faceted search without its counts, another shape, no data', () => {
    const listing = { data: [], cursor: null, isLastPage: true };
    expect(holdPageData('./Search', '/search?builder=Aldren', { listing }, true)).toBe(false);
    expect(holdPageData('./Product', '/product/p1', { listing }, true)).toBe(false);
    expect(holdPageData('./Product', '/product/p1', { product: { id: 'p1' } }, true)).toBe(false);
    expect(holdPageData('./Search', '/search', null, true)).toBe(false);
    expect(holdPageData('./Product', '/search', { product: boat(1) }, true)).toBe(false);
    // The home page needs no data.
    expect(holdPageData('./Home', '/', null, true)).toBe(true);
  });
});
