import { useTestStorageEngine } from '@nanostores/persistent';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { $cartCount, addToCart, type CartProduct } from '@boatshop/state';
import { $cartRefreshStatus } from '../cart/cart-notices';
import Cart from './cart';
import { resetAfterPageTest } from '../test/reset-cart';

const sloop = {
  id: '11111111-0000-4000-8000-000000000001',
  name: 'Sloop 28',
  thumbnailUrl: '/api/images/sloop.svg',
  priceCents: 2_000_000,
};
const ketch = {
  id: '11111111-0000-4000-8000-000000000002',
  name: 'Ketch 40',
  thumbnailUrl: '/api/images/ketch.svg',
  priceCents: 5_000_000,
};

type Handler = (url: string, init: RequestInit) => Promise<Response>;
const fetchMock = vi.fn<Handler>();
const json = (status: number, body: unknown) => Promise.resolve(new Response(JSON.stringify(body), { status }));

/** GET /api/products/by-ids over the given catalogue, leaving out what it does not hold, as the API does. */
function catalogue(products: CartProduct[]): Handler {
  return (url) => {
    const ids = new URL(url, 'http://shop.test').searchParams.get('ids')?.split(',') ?? [];
    return json(200, { data: products.filter((product) => ids.includes(product.id)) });
  };
}

beforeAll(() => {
  useTestStorageEngine();
});

beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  fetchMock.mockImplementation(catalogue([sloop, ketch]));
});

afterEach(() => resetAfterPageTest(fetchMock));

function Where() {
  const location = useLocation();
  // Not an <output>: that is a status region too, and the page's notices are the one under test.
  return <div aria-label="location">{location.pathname}</div>;
}

function renderCart() {
  return render(
    <MemoryRouter initialEntries={['/cart']}>
      <Routes>
        <Route path="/cart" element={<Cart />} />
        <Route path="*" element={null} />
      </Routes>
      <Where />
    </MemoryRouter>,
  );
}

function fillCart() {
  addToCart(sloop);
  addToCart(sloop);
  addToCart(ketch);
}

/** The page has asked the catalogue and taken its answer. */
const refreshed = () => waitFor(() => expect($cartRefreshStatus.get()).toBe('refreshed'));

describe('Cart page', () => {
  it("says 'You cart is empty' when there is nothing in the cart and still offers Continue shopping", async () => {
    renderCart();
    await refreshed();

    expect(screen.getByRole('heading', { name: 'Checkout' })).toBeTruthy();
    expect(screen.getByText('You cart is empty')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
    expect(fetchMock).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Continue shopping' }));
    expect(screen.getByLabelText('location').textContent).toBe('/search');
  });

  it('lists the lines in a table with the columns the spec names', async () => {
    fillCart();
    renderCart();
    await refreshed();

    const headers = screen.getAllByRole('columnheader').map((cell) => cell.textContent);
    expect(headers).toEqual(['Product', 'Name', 'Quantity', 'Price', 'Remove']);
    const sloopRow = screen.getAllByRole('row')[1]!;
    expect(within(sloopRow).getByRole('img', { name: 'Sloop 28' })).toBeTruthy();
    expect(within(sloopRow).getByText('2')).toBeTruthy();
    // Testing Library folds the non-breaking space before € into a plain one.
    expect(within(sloopRow).getByText('20.000,00 €')).toBeTruthy();
    expect(screen.getByText('Total: 90.000,00 €')).toBeTruthy();
    // Nothing changed in the catalogue: an empty live region, no dismiss button.
    expect(screen.getByRole('status').textContent).toBe('');
    expect(screen.queryByRole('button', { name: 'Dismiss cart notices' })).toBeNull();
  });

  it('changes quantities with + and -, drops a line reduced from 1 and removes one with X', async () => {
    fillCart();
    renderCart();
    await refreshed();

    fireEvent.click(screen.getByRole('button', { name: 'Increase quantity of Ketch 40' }));
    expect($cartCount.get()).toBe(4);
    expect(screen.getByText('Total: 140.000,00 €')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Decrease quantity of Sloop 28' }));
    fireEvent.click(screen.getByRole('button', { name: 'Decrease quantity of Sloop 28' }));
    expect(screen.queryByText('Sloop 28')).toBeNull();
    expect(screen.getByText('Total: 100.000,00 €')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Remove Ketch 40' }));
    expect(screen.getByText('You cart is empty')).toBeTruthy();
  });

  it('goes to /payment with Checkout', async () => {
    fillCart();
    renderCart();
    await refreshed();

    fireEvent.click(screen.getByRole('button', { name: 'Checkout' }));
    expect(screen.getByLabelText('location').textContent).toBe('/payment');
  });
});

describe('Cart page checking the catalogue', () => {
  it('asks the catalogue for the lines when shown and says above the table which price changed; the total follows', async () => {
    fillCart();
    fetchMock.mockImplementation(catalogue([{ ...sloop, priceCents: 2_250_000 }, ketch]));
    renderCart();

    const status = screen.getByRole('status');
    expect(await within(status).findByText('The price of Sloop 28 changed from 20.000,00 € to 22.500,00 €.')).toBeTruthy();
    expect(fetchMock.mock.calls[0]![0]).toMatch(/^\/api\/products\/by-ids\?ids=/);
    // The notices come before the table in reading order.
    expect(status.compareDocumentPosition(screen.getByRole('table')) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(within(screen.getAllByRole('row')[1]!).getByText('22.500,00 €')).toBeTruthy();
    expect(screen.getByText('Total: 95.000,00 €')).toBeTruthy();
  });

  it('removes a product no longer sold and names it; dismissing hides the notice', async () => {
    fillCart();
    fetchMock.mockImplementation(catalogue([ketch]));
    renderCart();

    const status = screen.getByRole('status');
    expect(await within(status).findByText('Sloop 28 is no longer sold and was removed from your cart.')).toBeTruthy();
    expect(screen.queryByRole('cell', { name: 'Sloop 28' })).toBeNull();
    expect(screen.getByText('Total: 50.000,00 €')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Dismiss cart notices' }));
    expect(status.textContent).toBe('');
    expect(screen.queryByRole('button', { name: 'Dismiss cart notices' })).toBeNull();
  });

  it('tells the shopper a boat in the cart was sold or reserved by someone else', async () => {
    fillCart();
    fetchMock.mockImplementation(
      catalogue([
        { ...sloop, availability: 'sold_out' },
        { ...ketch, availability: 'reserved' },
      ] as unknown as (typeof sloop)[]),
    );
    renderCart();

    const status = screen.getByRole('status');
    expect(await within(status).findByText('Sloop 28 has just been sold to another buyer and was removed from your cart.')).toBeTruthy();
    expect(
      within(status).getByText(
        'Ketch 40 has just been reserved by another buyer. It cannot be paid for unless the reservation is released.',
      ),
    ).toBeTruthy();
    expect(screen.queryByRole('cell', { name: 'Sloop 28' })).toBeNull();
    expect(screen.getAllByRole('cell', { name: 'Ketch 40' }).length).toBeGreaterThan(0);
  });

  it('still tells when the last product was removed and the cart is now empty', async () => {
    addToCart(sloop);
    fetchMock.mockImplementation(catalogue([]));
    renderCart();

    expect(await screen.findByText('Sloop 28 is no longer sold and was removed from your cart.')).toBeTruthy();
    expect(screen.getByText('You cart is empty')).toBeTruthy();
  });

  it('keeps the cart and says the prices could not be checked when the API cannot be reached', async () => {
    fillCart();
    fetchMock.mockImplementation(() => Promise.reject(new TypeError('Failed to fetch')));
    renderCart();

    expect(
      await within(screen.getByRole('status')).findByText(
        'The prices in your cart could not be checked right now. They are checked again when you pay.',
      ),
    ).toBeTruthy();
    expect(screen.getByText('Total: 90.000,00 €')).toBeTruthy();
    expect(screen.getAllByRole('row')).toHaveLength(3);

    fireEvent.click(screen.getByRole('button', { name: 'Dismiss cart notices' }));
    expect(screen.getByRole('status').textContent).toBe('');
  });

  it('stays usable while the catalogue answers, and keeps the quantity changed meanwhile', async () => {
    fillCart();
    let answer: () => void = () => undefined;
    const body = JSON.stringify({ data: [{ ...sloop, priceCents: 1_000_000 }, ketch] });
    fetchMock.mockImplementation(() => new Promise<Response>((resolve) => (answer = () => resolve(new Response(body)))));
    renderCart();

    fireEvent.click(screen.getByRole('button', { name: 'Increase quantity of Sloop 28' }));
    expect(screen.getByText('Total: 110.000,00 €')).toBeTruthy();
    await act(async () => answer());

    expect(await screen.findByText('Total: 80.000,00 €')).toBeTruthy();
    expect(within(screen.getAllByRole('row')[1]!).getByText('3')).toBeTruthy();
  });
});
