import { cleanStores, keepMount } from 'nanostores';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { $product, leaveProduct, loadProduct } from './product';

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const boat = (id: string, descriptionHtml = '<p>A boat</p>') => ({ id, name: `Boat ${id}`, descriptionHtml });

const fetchMock = vi.fn<(url: string, init: RequestInit) => Promise<Response>>();

function deferred() {
  let answer: (response: Response) => void = () => undefined;
  const promise = new Promise<Response>((resolve) => (answer = resolve));
  return { promise, answer };
}

beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
  keepMount($product);
});

afterEach(() => {
  leaveProduct();
  fetchMock.mockReset();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  cleanStores($product);
});

describe('the product page store', () => {
  it('loads the product by its id and sanitises the description again', async () => {
    fetchMock.mockResolvedValueOnce(json(boat('a b', '<p>Teak deck</p><img src=x onerror="alert(1)"><script>alert(2)</script>')));
    const loading = loadProduct('a b');
    expect($product.get()).toEqual({ id: 'a b', state: { status: 'loading' } });
    await loading;

    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/products/a%20b');
    const { id, state } = $product.get();
    expect(id).toBe('a b');
    expect(state).toMatchObject({ status: 'ready', product: { id: 'a b', name: 'Boat a b' }, safeDescription: '<p>Teak deck</p>' });
  });

  it('is missing on a 404, which is not logged; any other failure is missing and logged', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    fetchMock.mockResolvedValueOnce(json({ error: { code: 'PRODUCT_NOT_FOUND', message: 'Product not found' } }, 404));
    await loadProduct('gone');
    expect($product.get()).toEqual({ id: 'gone', state: { status: 'missing' } });
    expect(logged).not.toHaveBeenCalled();

    fetchMock.mockRejectedValueOnce(new TypeError('fetch failed'));
    await loadProduct('offline');
    expect($product.get()).toEqual({ id: 'offline', state: { status: 'missing' } });
    expect(logged).toHaveBeenCalledTimes(1);
  });

  it('shows only the product asked for last: an answer for the previous one is ignored', async () => {
    const first = deferred();
    fetchMock.mockReturnValueOnce(first.promise).mockResolvedValueOnce(json(boat('b')));
    const loadingFirst = loadProduct('a');
    await loadProduct('b');
    first.answer(json(boat('a')));
    await loadingFirst;

    expect($product.get()).toMatchObject({ id: 'b', state: { status: 'ready', product: { id: 'b' } } });
  });

  it('forgets the product when the page is left, also one still on its way', async () => {
    fetchMock.mockResolvedValueOnce(json(boat('a')));
    await loadProduct('a');
    leaveProduct();
    expect($product.get()).toEqual({ id: null, state: { status: 'loading' } });

    const late = deferred();
    fetchMock.mockReturnValueOnce(late.promise);
    const loading = loadProduct('b');
    leaveProduct();
    late.answer(json(boat('b')));
    await loading;
    expect($product.get()).toEqual({ id: null, state: { status: 'loading' } });
  });
});
