import { useTestStorageEngine } from '@nanostores/persistent';
import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { $cart, addToCart } from '@boatshop/state';
import { $cartNotices } from '../cart/cart-notices';
import { $paymentConfig, $paymentQuote } from '../payments/checkout';
import { resetAfterPageTest } from '../test/reset-cart';
import {
  backend,
  belowLimit,
  CLIENT_SECRET,
  fill,
  fillEverything,
  group,
  json,
  ORDER_ID,
  renderPayment,
  sloop,
  STANDIN,
  type Handler,
} from '../test/payment-page';

// A small stand-in for the dataset keeps the page light in jsdom; packages/web-shared/src/countries.test.ts
// checks the real one. Atlantis has no regions, as some countries in a dataset may not.
vi.mock('country-region-data', () => ({
  allCountries: [
    ['Atlantis', 'AQ', []],
    [
      'Ireland',
      'IE',
      [
        ['Cork', 'CO'],
        ['Galway', 'G'],
        ['Unlisted Isle', ''],
      ],
    ],
  ],
}));

const fetchMock = vi.fn<Handler>();

const calledUrls = () => fetchMock.mock.calls.map(([url]) => url);

beforeAll(() => {
  useTestStorageEngine();
});

beforeEach(() => {
  document.cookie = 'csrf=t; path=/';
  vi.stubGlobal('fetch', fetchMock);
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  $paymentConfig.set({ status: 'loading' });
  $paymentQuote.set({ status: 'loading' });
  addToCart(sloop);
  addToCart(sloop);
});

afterEach(() => resetAfterPageTest(fetchMock));

describe('Payment page', () => {
  it('sends a cart below 1 EUR to the dashboard', () => {
    $cart.set([]);
    fetchMock.mockImplementation(backend());
    renderPayment();

    expect(screen.getByText('at /dashboard null')).toBeTruthy();
  });

  it('offers country codes and the regions of the chosen country, every field required', async () => {
    fetchMock.mockImplementation(backend());
    renderPayment();
    await screen.findByLabelText('Card number');

    const shipping = group('Shipping address');
    const country = shipping.getByLabelText<HTMLSelectElement>('Country');
    expect(within(country).getByRole('option', { name: 'Ireland' }).getAttribute('value')).toBe('IE');
    fireEvent.change(country, { target: { value: 'IE' } });
    const county = shipping.getByLabelText<HTMLSelectElement>('County');
    expect(within(county).getByRole('option', { name: 'Cork' }).getAttribute('value')).toBe('CO');
    // A region without a code is stored by its name.
    expect(within(county).getByRole('option', { name: 'Unlisted Isle' }).getAttribute('value')).toBe('Unlisted Isle');
    fireEvent.change(country, { target: { value: 'AQ' } });
    expect(shipping.getByLabelText('County').tagName).toBe('INPUT');

    const form = screen.getByRole('button', { name: 'Pay now' }).closest('form')!;
    const inputs = [...form.querySelectorAll('input, select')];
    expect(inputs).toHaveLength(15);
    expect(inputs.every((input) => input.hasAttribute('required'))).toBe(true);
  });

  it('sends nothing while a field is empty', async () => {
    fetchMock.mockImplementation(backend());
    renderPayment();
    await fillEverything();
    fill(group('Billing address'), 'Card owner name', '  ');

    fireEvent.submit(screen.getByRole('button', { name: 'Pay now' }).closest('form')!);

    // Only reads: the card field's settings, the quote (again for the chosen country) and the saved addresses.
    expect([...new Set(calledUrls())].sort()).toEqual(['/api/account/addresses', '/api/payments/config', '/api/payments/quote']);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('sends products and quantities only, confirms the card with the stand-in, empties the cart and opens the order', async () => {
    fetchMock.mockImplementation(backend());
    // A notice from an earlier cart check, about a boat that left the cart then.
    $cartNotices.set([{ kind: 'sold', productId: 'gone', name: 'Nordvik 27' }]);
    renderPayment();
    await fillEverything();

    fireEvent.click(screen.getByRole('button', { name: 'Pay now' }));

    expect(await screen.findByText(`at /order/${ORDER_ID} {"paymentReceived":true}`)).toBeTruthy();
    expect($cart.get()).toEqual([]);
    // The notices were about the cart that was paid for.
    expect($cartNotices.get()).toEqual([]);
    const create = fetchMock.mock.calls.find(([url]) => url === '/api/payments/create')!;
    expect(JSON.parse(create[1].body as string)).toEqual({
      items: [{ productId: sloop.id, quantity: 2 }],
      expectedTotalCents: 4_000_000,
      shipping: {
        name: 'Sandy Shopper',
        address: { line1: '1 Harbour Road', city: 'Cork', state: 'CO', postal_code: 'T12 X2Y3', country: 'IE' },
      },
      billing: {
        name: 'Sandy Shopper',
        address: { line1: '1 Harbour Road', city: 'Cork', state: 'CO', postal_code: 'T12 X2Y3', country: 'IE' },
      },
    });
    const confirm = fetchMock.mock.calls.find(([url]) => url.startsWith(STANDIN))!;
    const form = new URLSearchParams(confirm[1].body as URLSearchParams);
    expect(Object.fromEntries(form)).toMatchObject({
      key: 'pk_test_dev',
      client_secret: CLIENT_SECRET,
      'payment_method_data[card][number]': '4242424242424242',
      'payment_method_data[card][exp_month]': '12',
      'payment_method_data[card][exp_year]': '34',
      'payment_method_data[card][cvc]': '123',
    });
  });

  it('shows why a card was declined and keeps the cart', async () => {
    fetchMock.mockImplementation(
      backend({
        [`${STANDIN}/v1/payment_intents/pi_test123/confirm`]: () =>
          json(402, { error: { type: 'card_error', code: 'card_declined', message: 'Your card was declined.' } }),
      }),
    );
    renderPayment();
    await fillEverything('4000 0000 0000 0002');

    fireEvent.click(screen.getByRole('button', { name: 'Pay now' }));

    expect((await screen.findByRole('alert')).textContent).toBe('Your card was declined.');
    expect($cart.get()).toHaveLength(1);
    expect(calledUrls()).toContain('/api/payments/confirm');
  });

  it('shows the new total when prices changed and refreshes the cart from the catalogue', async () => {
    fetchMock.mockImplementation(
      backend({
        '/api/payments/create': () =>
          json(409, { error: { code: 'PRICES_CHANGED', message: 'Prices changed: the new total is 50.000,00 €.', totalCents: 5_000_000 } }),
        [`/api/products/by-ids?ids=${sloop.id}`]: () => json(200, { data: [{ ...sloop, priceCents: 2_500_000 }] }),
      }),
    );
    renderPayment();
    await fillEverything();

    fireEvent.click(screen.getByRole('button', { name: 'Pay now' }));

    expect((await screen.findByRole('alert')).textContent).toBe('Prices changed: the new total is 50.000,00\u00a0€.');
    expect($cart.get()).toEqual([expect.objectContaining({ productId: sloop.id, priceCents: 2_500_000, quantity: 2 })]);
    expect(screen.getByText('50.000,00 €')).toBeTruthy();
    expect(within(screen.getByRole('status')).getByText('The price of Sloop 28 changed from 20.000,00 € to 25.000,00 €.')).toBeTruthy();
    expect(calledUrls().some((url) => url.startsWith(STANDIN))).toBe(false);
  });

  it('names a product no longer sold when the API refuses the cart for it, and leaves the rest to pay', async () => {
    const ketch = {
      id: '55555555-0000-4000-8000-000000000006',
      name: 'Ketch 40',
      thumbnailUrl: '/api/images/ketch.svg',
      priceCents: 1_000_000,
    };
    addToCart(ketch);
    fetchMock.mockImplementation(
      backend({
        '/api/payments/create': () =>
          json(409, { error: { code: 'PRICES_CHANGED', message: 'Prices changed: the new total is 40.000,00 €.', totalCents: 4_000_000 } }),
        [`/api/products/by-ids?ids=${sloop.id}%2C${ketch.id}`]: () => json(200, { data: [sloop] }),
      }),
    );
    renderPayment();
    await fillEverything();

    fireEvent.click(screen.getByRole('button', { name: 'Pay now' }));

    expect((await screen.findByRole('alert')).textContent).toBe('Prices changed: the new total is 40.000,00\u00a0€.');
    expect(within(screen.getByRole('status')).getByText('Ketch 40 is no longer sold and was removed from your cart.')).toBeTruthy();
    expect($cart.get()).toEqual([expect.objectContaining({ productId: sloop.id, quantity: 2 })]);
    expect(screen.getByText('40.000,00 €')).toBeTruthy();
  });

  it('says the boat has just been reserved or sold when the API answers OUT_OF_STOCK, and takes a sold boat out of the cart', async () => {
    const message = 'Sloop 28 has just been reserved or sold.';
    const ketch = {
      id: '55555555-0000-4000-8000-000000000006',
      name: 'Ketch 40',
      thumbnailUrl: '/api/images/ketch.svg',
      priceCents: 1_000_000,
    };
    addToCart(ketch);
    fetchMock.mockImplementation(
      backend({
        '/api/payments/create': () => json(409, { error: { code: 'OUT_OF_STOCK', message, details: ['Sloop 28'] } }),
        [`/api/products/by-ids?ids=${sloop.id}%2C${ketch.id}`]: () =>
          json(200, {
            data: [
              { ...sloop, stock: 0, availability: 'sold_out' },
              { ...ketch, stock: null, availability: 'in_stock' },
            ],
          }),
      }),
    );
    renderPayment();
    await fillEverything();

    fireEvent.click(screen.getByRole('button', { name: 'Pay now' }));

    expect((await screen.findByRole('alert')).textContent).toBe('Sloop 28 has just been reserved or sold. Nothing was charged.');
    expect(
      within(screen.getByRole('status')).getByText('Sloop 28 has just been sold to another buyer and was removed from your cart.'),
    ).toBeTruthy();
    expect($cart.get()).toEqual([expect.objectContaining({ productId: ketch.id, quantity: 1 })]);
    expect(calledUrls().some((url) => url.startsWith(STANDIN))).toBe(false);
  });

  it('shows the API message for an amount above the card limit', async () => {
    const message = 'Card payments are limited to 999.999,99 € per order; this order comes to 40.000,00 €. Nothing was charged.';
    fetchMock.mockImplementation(backend({ '/api/payments/create': () => json(422, { error: { code: 'AMOUNT_TOO_LARGE', message } }) }));
    renderPayment();
    await fillEverything();

    fireEvent.click(screen.getByRole('button', { name: 'Pay now' }));

    expect((await screen.findByRole('alert')).textContent).toBe(message);
  });

  // ledger: holds of one-off boats
  it.each([
    [
      403,
      'EMAIL_NOT_VERIFIED',
      'Please verify your e-mail address before reserving a one-off boat: open the link we sent you when you registered (your account page can send it again). Nothing was charged.',
    ],
    [
      429,
      'TOO_MANY_HOLDS',
      'Your account already holds 2 boats in unpaid checkouts. Pay for one, or wait until its hold ends, before reserving another.',
    ],
  ])('shows why a one-off boat cannot be held (%i %s) in words', async (status, code, message) => {
    fetchMock.mockImplementation(backend({ '/api/payments/create': () => json(status, { error: { code, message } }) }));
    renderPayment();
    await fillEverything();

    fireEvent.click(screen.getByRole('button', { name: 'Pay now' }));

    expect((await screen.findByRole('alert')).textContent).toBe(message);
    expect(calledUrls().some((url) => url.startsWith(STANDIN))).toBe(false);
  });
  describe('with a deposit', () => {
    const belmare = {
      id: '55555555-0000-4000-8000-000000000064',
      name: 'Belmare 64 Sport',
      thumbnailUrl: '/api/images/belmare.svg',
      priceCents: 289_000_000,
    };
    const required = {
      totalCents: 289_000_000,
      cardLimitCents: 99_999_999,
      depositOffered: true,
      depositRequired: true,
      depositCents: 28_900_000,
      balanceDueDays: 14,
    };

    function yachtInCart() {
      $cart.set([]);
      addToCart(belmare);
    }

    it('keeps checkout as it was below the card limit: no deposit, the total to pay, no mode sent', async () => {
      fetchMock.mockImplementation(backend());
      renderPayment();
      await fillEverything();

      expect(screen.queryByRole('heading', { name: 'Reserve with a deposit' })).toBeNull();
      expect(screen.getByText(/^Amount to pay:/).textContent).toBe('Amount to pay: 40.000,00\u00a0€');
      const quote = fetchMock.mock.calls.find(([url]) => url === '/api/payments/quote')!;
      expect(JSON.parse(quote[1].body as string)).toEqual({ items: [{ productId: sloop.id, quantity: 2 }] });
      fireEvent.click(screen.getByRole('button', { name: 'Pay now' }));

      await screen.findByText(`at /order/${ORDER_ID} {"paymentReceived":true}`);
      const create = fetchMock.mock.calls.find(([url]) => url === '/api/payments/create')!;
      expect(JSON.parse(create[1].body as string)).not.toHaveProperty('mode');
    });

    it('reserves a yacht above the card limit with the deposit by card, showing the balance due by bank transfer; no full payment is offered', async () => {
      yachtInCart();
      fetchMock.mockImplementation(
        backend({
          '/api/payments/quote': () => json(200, required),
          '/api/payments/create': () =>
            json(201, {
              orderId: ORDER_ID,
              clientSecret: CLIENT_SECRET,
              totalCents: 289_000_000,
              amountCents: 28_900_000,
              mode: 'deposit',
            }),
        }),
      );
      renderPayment();
      await fillEverything();

      const deposit = within(screen.getByRole('region', { name: 'Reserve with a deposit' }));
      expect(deposit.getByText(/more than one card payment can carry/).textContent).toContain('2.890.000,00\u00a0€');
      expect(deposit.getByText('Deposit, paid by card now').nextElementSibling!.textContent).toBe('289.000,00\u00a0€');
      expect(deposit.getByText('Balance, due by bank transfer within 14 days').nextElementSibling!.textContent).toBe('2.601.000,00\u00a0€');
      expect(screen.queryByRole('radio')).toBeNull();
      expect(screen.queryByText(/in full by card/)).toBeNull();
      expect(screen.getByText(/^Amount to pay now:/).textContent).toContain('289.000,00\u00a0€');
      expect(screen.queryByRole('button', { name: 'Pay now' })).toBeNull();

      fireEvent.click(screen.getByRole('button', { name: 'Pay deposit of 289.000,00\u00a0€' }));

      expect(await screen.findByText(`at /order/${ORDER_ID} {"paymentReceived":true}`)).toBeTruthy();
      const create = fetchMock.mock.calls.find(([url]) => url === '/api/payments/create')!;
      expect(JSON.parse(create[1].body as string)).toMatchObject({
        items: [{ productId: belmare.id, quantity: 1 }],
        expectedTotalCents: 289_000_000,
        mode: 'deposit',
      });
      expect($cart.get()).toEqual([]);
    });

    it('lets the shopper choose between the full payment and a deposit where the shop only offers one', async () => {
      fetchMock.mockImplementation(
        backend({ '/api/payments/quote': () => json(200, { ...belowLimit, depositOffered: true, depositCents: 400_000 }) }),
      );
      renderPayment();
      await fillEverything();

      const full = screen.getByRole('radio', { name: 'Pay 40.000,00\u00a0€ in full by card' });
      expect((full as HTMLInputElement).checked).toBe(true);
      expect(screen.getByRole('button', { name: 'Pay now' })).toBeTruthy();
      fireEvent.click(screen.getByRole('radio', { name: 'Reserve with a deposit of 4.000,00\u00a0€' }));
      fireEvent.click(screen.getByRole('button', { name: 'Pay deposit of 4.000,00\u00a0€' }));

      await screen.findByText(`at /order/${ORDER_ID} {"paymentReceived":true}`);
      const create = fetchMock.mock.calls.find(([url]) => url === '/api/payments/create')!;
      expect(JSON.parse(create[1].body as string)).toMatchObject({ mode: 'deposit' });
    });

    it('pays in full as before when the quote cannot be had, and shows the API message if the total is above the limit', async () => {
      yachtInCart();
      const message =
        'Card payments are limited to 999.999,99 € per charge; reserve this order with a deposit instead. Nothing was charged.';
      fetchMock.mockImplementation(
        backend({
          '/api/payments/quote': () => json(503, { error: { code: 'UNAVAILABLE', message: 'down' } }),
          '/api/payments/create': () => json(422, { error: { code: 'AMOUNT_TOO_LARGE', message, totalCents: 289_000_000 } }),
        }),
      );
      renderPayment();
      await fillEverything();

      expect(screen.queryByRole('heading', { name: 'Reserve with a deposit' })).toBeNull();
      fireEvent.click(screen.getByRole('button', { name: 'Pay now' }));

      expect((await screen.findByRole('alert')).textContent).toBe(message);
      const create = fetchMock.mock.calls.find(([url]) => url === '/api/payments/create')!;
      expect(JSON.parse(create[1].body as string)).not.toHaveProperty('mode');
    });
  });
});
