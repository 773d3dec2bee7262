import { cleanTestStorage, getTestStorage, useTestStorageEngine } from '@nanostores/persistent';
import { cleanStores, keepMount } from 'nanostores';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { $cart, $cartTotalCents, addToCart, clearCart, reduceCartItem, removeCartItem, type CartProduct } from '@boatshop/state';
import { $cartNotices, $cartRefreshStatus, dismissCartNotices } from './cart-notices';
import { refreshCart } from './cart-refresh';

const uuid = (n: number) => `b1c6c1d2-0000-4000-8000-${String(n).padStart(12, '0')}`;
const aldren = { id: uuid(1), name: 'Aldren 22', thumbnailUrl: '/api/images/aldren.svg', priceCents: 2_100_000 };
const hallberg = { id: uuid(2), name: 'Hallberg 31', thumbnailUrl: '/api/images/hallberg.svg', priceCents: 4_500_000 };
const ketch = { id: uuid(3), name: 'Ketch 40', thumbnailUrl: '/api/images/ketch.svg', priceCents: 12_345_678 };

type Handler = (url: string, init: RequestInit) => Promise<Response>;
const fetchMock = vi.fn<Handler>();

const json = (status: number, body: unknown) =>
  Promise.resolve(new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }));

const askedIds = (url: string) => new URL(url, 'http://shop.test').searchParams.get('ids')!.split(',');

/** GET /api/products/by-ids over the given catalogue: unknown ids are left out, as the API does. */
function catalogue(products: CartProduct[]): Handler {
  return (url) => {
    if (!url.startsWith('/api/products/by-ids?')) return json(404, { error: { code: 'NOT_FOUND', message: `unexpected ${url}` } });
    const ids = askedIds(url);
    return json(200, {
      data: products.filter((product) => ids.includes(product.id)).map((product) => ({ ...product, category: 'yachts' })),
    });
  };
}

/** An answer the test releases when it wants, to play with the order of events. */
function deferred(): { promise: Promise<Response>; answer: (products: CartProduct[]) => void } {
  let answer: (products: CartProduct[]) => void = () => undefined;
  const promise = new Promise<Response>((resolve) => {
    answer = (products) => resolve(new Response(JSON.stringify({ data: products }), { status: 200 }));
  });
  return { promise, answer };
}

function fill(...lines: [CartProduct, number][]) {
  for (const [product, quantity] of lines) for (let i = 0; i < quantity; i += 1) addToCart(product);
}

const line = (product: CartProduct, quantity: number) => ({
  productId: product.id,
  name: product.name,
  thumbnailUrl: product.thumbnailUrl,
  priceCents: product.priceCents,
  quantity,
});

beforeAll(() => {
  useTestStorageEngine();
});

beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  keepMount($cart);
  keepMount($cartTotalCents);
  keepMount($cartNotices);
  keepMount($cartRefreshStatus);
});

afterEach(() => {
  fetchMock.mockReset();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  cleanTestStorage();
  $cart.set([]);
  dismissCartNotices();
  $cartRefreshStatus.set('idle');
  cleanStores($cart, $cartTotalCents, $cartNotices, $cartRefreshStatus);
});

describe('refreshCart', () => {
  it("takes the catalogue's new price, name and picture, keeps the quantity and says what the price was", async () => {
    fill([aldren, 2], [ketch, 1]);
    const renamed = { ...aldren, name: 'Aldren 22 S', thumbnailUrl: '/api/images/aldren-s.svg', priceCents: 2_250_000 };
    fetchMock.mockImplementation(catalogue([renamed, ketch]));

    await refreshCart();

    expect($cart.get()).toEqual([line(renamed, 2), line(ketch, 1)]);
    expect($cartTotalCents.get()).toBe(2 * 2_250_000 + 12_345_678);
    expect($cartNotices.get()).toEqual([
      { kind: 'price-changed', productId: aldren.id, name: 'Aldren 22 S', oldPriceCents: 2_100_000, newPriceCents: 2_250_000 },
    ]);
    expect($cartRefreshStatus.get()).toBe('refreshed');
    expect(askedIds(fetchMock.mock.calls[0]![0]).sort()).toEqual([aldren.id, ketch.id]);
  });

  it('drops the line of a product no longer sold, naming it, and keeps the other lines and quantities', async () => {
    fill([hallberg, 1], [aldren, 3]);
    fetchMock.mockImplementation(catalogue([aldren]));

    await refreshCart();

    expect($cart.get()).toEqual([line(aldren, 3)]);
    expect($cartTotalCents.get()).toBe(3 * 2_100_000);
    expect($cartNotices.get()).toEqual([{ kind: 'no-longer-sold', productId: hallberg.id, name: 'Hallberg 31' }]);
  });

  it('records no notice and writes nothing when the catalogue agrees with the cart', async () => {
    fill([aldren, 2], [hallberg, 1]);
    const stored = getTestStorage()['cart'];
    const cartChanges = vi.fn();
    const unlisten = $cart.listen(cartChanges);
    fetchMock.mockImplementation(catalogue([aldren, hallberg, ketch]));

    await refreshCart();
    unlisten();

    expect($cartNotices.get()).toEqual([]);
    expect(cartChanges).not.toHaveBeenCalled();
    expect(getTestStorage()['cart']).toBe(stored);
    expect($cartRefreshStatus.get()).toBe('refreshed');
  });

  it.each([
    ['the API fails', () => json(500, { error: { code: 'INTERNAL', message: 'Internal server error' } })],
    ['the network is down', () => Promise.reject(new TypeError('Failed to fetch'))],
    [
      "the answer is not the API's (a page from something in between)",
      () => Promise.resolve(new Response('<html>Gateway</html>', { status: 200 })),
    ],
  ])('keeps the cart as it is and reports the failure when %s', async (_, answer) => {
    fill([aldren, 2], [hallberg, 1]);
    const before = $cart.get();
    fetchMock.mockImplementation(answer);

    await expect(refreshCart()).resolves.toBeUndefined();

    expect($cart.get()).toEqual(before);
    expect($cartNotices.get()).toEqual([]);
    expect($cartRefreshStatus.get()).toBe('failed');
    expect(console.error).toHaveBeenCalled();

    dismissCartNotices();
    expect($cartRefreshStatus.get()).toBe('idle');
  });

  it('persists the updated lines under "cart"', async () => {
    fill([aldren, 2], [hallberg, 1]);
    fetchMock.mockImplementation(catalogue([{ ...aldren, priceCents: 1_999_999 }]));

    await refreshCart();

    expect(JSON.parse(getTestStorage()['cart'] ?? 'null')).toEqual([line({ ...aldren, priceCents: 1_999_999 }, 2)]);
  });

  it('asks for at most 100 ids at a time', async () => {
    const many = Array.from({ length: 230 }, (_, i) => ({
      id: uuid(100 + i),
      name: `Dinghy ${i}`,
      thumbnailUrl: '/d.svg',
      priceCents: 100_000 + i,
    }));
    many.forEach((product) => addToCart(product));
    fetchMock.mockImplementation(catalogue(many.slice(1)));

    await refreshCart();

    const sizes = fetchMock.mock.calls.map(([url]) => askedIds(url).length);
    expect(sizes).toEqual([100, 100, 30]);
    expect(new Set(fetchMock.mock.calls.flatMap(([url]) => askedIds(url))).size).toBe(230);
    expect($cart.get()).toHaveLength(229);
    expect($cartNotices.get()).toEqual([{ kind: 'no-longer-sold', productId: many[0]!.id, name: 'Dinghy 0' }]);
  });

  it('does not call the API for an empty cart', async () => {
    await refreshCart();

    expect(fetchMock).not.toHaveBeenCalled();
    expect($cartRefreshStatus.get()).toBe('refreshed');
  });

  it('drops a line whose id cannot be a product without sending that id (the API would refuse the whole request)', async () => {
    fill([aldren, 1]);
    $cart.set([...$cart.get(), { productId: 'p1', name: 'Old Sloop', thumbnailUrl: '', priceCents: 100, quantity: 1 }]);
    fetchMock.mockImplementation(catalogue([aldren]));

    await refreshCart();

    expect(askedIds(fetchMock.mock.calls[0]![0])).toEqual([aldren.id]);
    expect($cart.get()).toEqual([line(aldren, 1)]);
    expect($cartNotices.get()).toEqual([{ kind: 'no-longer-sold', productId: 'p1', name: 'Old Sloop' }]);
  });
});

describe('refreshCart and stock', () => {
  const withAvailability = (product: CartProduct, availability: string) => ({ ...product, availability });

  it('takes a boat sold to someone else out of the cart and says so', async () => {
    fill([aldren, 1], [ketch, 1]);
    fetchMock.mockImplementation(catalogue([withAvailability(aldren, 'sold_out'), ketch] as CartProduct[]));

    await refreshCart();

    expect($cart.get()).toEqual([line(ketch, 1)]);
    expect($cartNotices.get()).toEqual([{ kind: 'sold', productId: aldren.id, name: 'Aldren 22' }]);
  });

  it('keeps a boat reserved by another order in the cart, says so, and forgets it once the hold lapses', async () => {
    fill([hallberg, 1]);
    fetchMock.mockImplementation(catalogue([withAvailability(hallberg, 'reserved')] as CartProduct[]));

    await refreshCart();

    expect($cart.get()).toEqual([line(hallberg, 1)]);
    expect($cartNotices.get()).toEqual([{ kind: 'reserved', productId: hallberg.id, name: 'Hallberg 31' }]);

    fetchMock.mockImplementation(catalogue([withAvailability(hallberg, 'in_stock')] as CartProduct[]));
    addToCart(ketch);
    fetchMock.mockImplementation(catalogue([withAvailability(hallberg, 'in_stock'), ketch] as CartProduct[]));
    await refreshCart();

    expect($cartNotices.get()).toEqual([]);
    expect($cart.get()).toEqual([line(hallberg, 1), line(ketch, 1)]);
  });

  it('drops the reservation notice with the line the shopper removes', async () => {
    fill([hallberg, 1]);
    fetchMock.mockImplementation(catalogue([withAvailability(hallberg, 'reserved')] as CartProduct[]));
    await refreshCart();

    removeCartItem(hallberg.id);

    expect($cartNotices.get()).toEqual([]);
  });
});

describe('refreshCart while the cart changes', () => {
  it('shares one request between calls for the same cart', async () => {
    fill([aldren, 1]);
    const pending = deferred();
    fetchMock.mockReturnValueOnce(pending.promise);

    const first = refreshCart();
    const second = refreshCart();
    expect($cartRefreshStatus.get()).toBe('refreshing');
    pending.answer([{ ...aldren, priceCents: 2_000_000 }]);
    await Promise.all([first, second]);

    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect($cart.get()).toEqual([line({ ...aldren, priceCents: 2_000_000 }, 1)]);
    expect($cartNotices.get()).toHaveLength(1);
  });

  it('applies the answer to the cart as it is when the answer comes: new quantities, removals and additions stay', async () => {
    fill([aldren, 1], [hallberg, 1]);
    const pending = deferred();
    fetchMock.mockReturnValueOnce(pending.promise);

    const refreshing = refreshCart();
    addToCart(aldren);
    removeCartItem(hallberg.id);
    addToCart(ketch);
    pending.answer([{ ...aldren, priceCents: 2_200_000 }]);
    await refreshing;

    // Hallberg was removed by the shopper (no notice); Ketch was not asked about, so it is not "unsold".
    expect($cart.get()).toEqual([line({ ...aldren, priceCents: 2_200_000 }, 2), line(ketch, 1)]);
    expect($cartNotices.get()).toEqual([
      { kind: 'price-changed', productId: aldren.id, name: 'Aldren 22', oldPriceCents: 2_100_000, newPriceCents: 2_200_000 },
    ]);
  });

  it('lets the latest refresh win when an older answer arrives after it', async () => {
    fill([aldren, 1]);
    const older = deferred();
    const newer = deferred();
    fetchMock.mockReturnValueOnce(older.promise).mockReturnValueOnce(newer.promise);

    const first = refreshCart();
    addToCart(hallberg);
    const second = refreshCart();
    newer.answer([{ ...aldren, priceCents: 2_300_000 }, hallberg]);
    await second;
    older.answer([]);
    await first;

    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect($cart.get()).toEqual([line({ ...aldren, priceCents: 2_300_000 }, 1), line(hallberg, 1)]);
    expect($cartNotices.get()).toEqual([
      expect.objectContaining({ kind: 'price-changed', productId: aldren.id, newPriceCents: 2_300_000 }),
    ]);
    expect($cartRefreshStatus.get()).toBe('refreshed');
  });

  it('makes a caller of an outdated refresh wait for the latest one', async () => {
    fill([aldren, 1]);
    const older = deferred();
    const newer = deferred();
    fetchMock.mockReturnValueOnce(older.promise).mockReturnValueOnce(newer.promise);

    const first = refreshCart();
    addToCart(ketch);
    void refreshCart();
    older.answer([]);
    let firstSettled = false;
    void first.then(() => (firstSettled = true));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(firstSettled).toBe(false);

    newer.answer([aldren, ketch]);
    await first;
    expect($cart.get()).toEqual([line(aldren, 1), line(ketch, 1)]);
  });
});

describe('cart notices', () => {
  it('stay dismissed: a later add, remove or refresh of the same cart brings none back', async () => {
    fill([aldren, 1], [hallberg, 1]);
    const newAldren = { ...aldren, priceCents: 2_250_000 };
    fetchMock.mockImplementation(catalogue([newAldren]));
    await refreshCart();
    expect($cartNotices.get()).toHaveLength(2);

    dismissCartNotices();
    addToCart(newAldren);
    reduceCartItem(aldren.id);
    addToCart(ketch);
    removeCartItem(ketch.id);
    fetchMock.mockImplementation(catalogue([newAldren, ketch]));
    await refreshCart();

    expect($cartNotices.get()).toEqual([]);
    expect($cart.get()).toEqual([line(newAldren, 1)]);
  });

  it('leave with the line they are about, so adding the product again shows no stale price notice', async () => {
    fill([aldren, 1], [hallberg, 1]);
    const newAldren = { ...aldren, priceCents: 2_250_000 };
    fetchMock.mockImplementation(catalogue([newAldren]));
    await refreshCart();

    removeCartItem(aldren.id);
    expect($cartNotices.get()).toEqual([{ kind: 'no-longer-sold', productId: hallberg.id, name: 'Hallberg 31' }]);
    addToCart(newAldren);
    await refreshCart();
    expect($cartNotices.get()).toEqual([{ kind: 'no-longer-sold', productId: hallberg.id, name: 'Hallberg 31' }]);
  });

  it('read as one change from the first price to the latest, and go when the price is back', async () => {
    fill([aldren, 1]);
    fetchMock.mockImplementation(catalogue([{ ...aldren, priceCents: 2_200_000 }]));
    await refreshCart();
    fetchMock.mockImplementation(catalogue([{ ...aldren, priceCents: 2_300_000 }]));
    await refreshCart();

    expect($cartNotices.get()).toEqual([
      { kind: 'price-changed', productId: aldren.id, name: 'Aldren 22', oldPriceCents: 2_100_000, newPriceCents: 2_300_000 },
    ]);

    fetchMock.mockImplementation(catalogue([aldren]));
    await refreshCart();
    expect($cartNotices.get()).toEqual([]);
  });

  it('about a price or a hold go with a cleared cart; the others stay until dismissed', async () => {
    fill([aldren, 1], [hallberg, 1]);
    fetchMock.mockImplementation(catalogue([{ ...aldren, priceCents: 2_250_000 }]));
    await refreshCart();
    expect($cartNotices.get()).toHaveLength(2);

    clearCart();

    expect($cartNotices.get()).toEqual([{ kind: 'no-longer-sold', productId: hallberg.id, name: 'Hallberg 31' }]);
  });

  it('about a line removed while nobody read them (another tab) are gone when read again', async () => {
    fill([aldren, 1]);
    fetchMock.mockImplementation(catalogue([{ ...aldren, priceCents: 2_250_000 }]));
    await refreshCart();
    cleanStores($cartNotices);
    $cartNotices.set([
      { kind: 'price-changed', productId: aldren.id, name: 'Aldren 22', oldPriceCents: 2_100_000, newPriceCents: 2_250_000 },
    ]);

    $cart.set([]);
    expect($cartNotices.get()).toEqual([]);
  });
});
