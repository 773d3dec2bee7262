import { useTestStorageEngine } from '@nanostores/persistent';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { addToCart } from '@boatshop/state';
import { $paymentConfig, $paymentQuote } from '../payments/checkout';
import { resetBuyerCheck } from '../payments/buyer-check';
import { resetAfterPageTest } from '../test/reset-cart';
import {
  backend,
  belowLimit,
  CLIENT_SECRET,
  fillEverything,
  json,
  ORDER_ID,
  renderPayment,
  sloop,
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

afterEach(() => {
  resetBuyerCheck();
  resetAfterPageTest(fetchMock);
});

// A business whose VAT ID the API confirmed pays net: the page shows the net amount before Pay
// now, asks the quote again for that buyer, and places the order under the check.

const CHECK_ID = '66666666-0000-4000-8000-000000000006';
const netCheck = {
  checkId: CHECK_ID,
  buyerType: 'business',
  country: 'IE',
  vatId: 'IE6388047V',
  vies: 'valid',
  consultationNumber: 'WAPI0123',
  traderName: 'Harbour Ltd',
  lines: [
    {
      productId: sloop.id,
      quantity: 2,
      vatCase: 'intra_community',
      rateBasisPoints: 0,
      vatCountry: null,
      netCents: 3_361_344,
      vatCents: 0,
      totalCents: 3_361_344,
      showsVat: true,
      wording: 'Intra-Community supply exempt from VAT',
    },
  ],
  netCents: 3_361_344,
  vatCents: 0,
  totalCents: 3_361_344,
};

describe('Payment page, buying as a business', () => {
  it('shows the net amount, quotes and orders under the buyer check', async () => {
    fetchMock.mockImplementation(
      backend({
        '/api/vat/buyer-checks': () => json(201, netCheck),
        '/api/payments/create': () =>
          json(201, { orderId: ORDER_ID, clientSecret: CLIENT_SECRET, totalCents: 3_361_344, amountCents: 3_361_344, mode: 'full' }),
      }),
    );
    renderPayment();
    await fillEverything();
    expect(screen.getByText(/^Amount to pay:/).textContent).toBe('Amount to pay: 40.000,00\u00a0€');

    fireEvent.change(screen.getByLabelText('I buy as'), { target: { value: 'business' } });
    fireEvent.change(screen.getByLabelText('VAT ID'), { target: { value: 'IE6388047V' } });
    fireEvent.click(screen.getByRole('button', { name: 'Check VAT ID' }));
    await screen.findByText(/confirmed by VIES/);
    expect(screen.getByText(/^Amount to pay:/).textContent).toBe('Amount to pay: 33.613,44\u00a0€ (without VAT)');
    await waitFor(() => {
      const quotes = fetchMock.mock.calls.filter(([url]) => url === '/api/payments/quote');
      expect(JSON.parse(quotes.at(-1)![1].body as string)).toEqual({
        items: [{ productId: sloop.id, quantity: 2 }],
        buyerCheckId: CHECK_ID,
      });
    });
    await waitFor(() => expect(screen.getByRole('button', { name: 'Pay now' }).hasAttribute('disabled')).toBe(false));

    fireEvent.click(screen.getByRole('button', { name: 'Pay now' }));
    await screen.findByText(`at /order/${ORDER_ID} {"paymentReceived":true}`);
    const create = fetchMock.mock.calls.find(([url]) => url === '/api/payments/create')!;
    expect(JSON.parse(create[1].body as string)).toMatchObject({ expectedTotalCents: 4_000_000, buyerCheckId: CHECK_ID });
  });
});

describe('Payment page, buying privately', () => {
  it('shows what a consumer in the shipping country pays, as the server quotes it (a new boat to another member state: without VAT)', async () => {
    fetchMock.mockImplementation((url, init) => {
      if (url === '/api/payments/quote') {
        const body = JSON.parse(init.body as string) as { shippingCountry?: string };
        return json(200, { ...belowLimit, totalCents: body.shippingCountry === 'IE' ? 3_361_344 : 4_000_000 });
      }
      return backend()(url, init);
    });
    renderPayment();
    await waitFor(() => expect(screen.getByText(/^Amount to pay:/).textContent).toBe('Amount to pay: 40.000,00\u00a0€'));
    await fillEverything();
    await waitFor(() => expect(screen.getByText(/^Amount to pay:/).textContent).toBe('Amount to pay: 33.613,44\u00a0€ (without VAT)'));
    const quotes = fetchMock.mock.calls.filter(([url]) => url === '/api/payments/quote');
    expect(JSON.parse(quotes.at(-1)![1].body as string)).toEqual({ items: [{ productId: sloop.id, quantity: 2 }], shippingCountry: 'IE' });
  });
});
