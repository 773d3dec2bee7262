import { useTestStorageEngine } from '@nanostores/persistent';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { addToCart } from '@boatshop/state';
import { $paymentConfig, $paymentQuote } from '../payments/checkout';
import { resetBuyerCheck } from '../payments/buyer-check';
import Payment from './payment';
import { resetAfterPageTest } from '../test/reset-cart';

// A small stand-in for the dataset keeps the page light in jsdom; src/payments/countries.test.ts
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

const STANDIN = 'http://127.0.0.1:4020';
const ORDER_ID = '44444444-0000-4000-8000-000000000004';
const CLIENT_SECRET = 'pi_test123_secret_abc';
const sloop = {
  id: '55555555-0000-4000-8000-000000000005',
  name: 'Sloop 28',
  thumbnailUrl: '/api/images/sloop.svg',
  priceCents: 2_000_000,
};

type Handler = (url: string, init: RequestInit) => Promise<Response>;
const fetchMock = vi.fn<Handler>();
const json = (status: number, body: unknown) => Promise.resolve(new Response(JSON.stringify(body), { status }));

/** The API and the stand-in as the page meets them; `overrides` replaces the answer for one URL. */
function backend(overrides: Record<string, () => Promise<Response>> = {}): Handler {
  return (url) => {
    const override = overrides[url];
    if (override) return override();
    if (url === '/api/payments/config') return json(200, { provider: 'local', publishableKey: 'pk_test_dev', localApiBase: STANDIN });
    if (url === '/api/payments/quote') return json(200, belowLimit);
    if (url === '/api/payments/create') return json(201, { orderId: ORDER_ID, clientSecret: CLIENT_SECRET, totalCents: 4_000_000 });
    if (url === `${STANDIN}/v1/payment_intents/pi_test123/confirm`) return json(200, { id: 'pi_test123', status: 'succeeded' });
    if (url === '/api/payments/confirm') return json(200, { orderId: ORDER_ID, status: 'failed' });
    return json(404, { error: { code: 'NOT_FOUND', message: `unexpected ${url}` } });
  };
}

function Where() {
  const location = useLocation();
  return <p>{`at ${location.pathname} ${JSON.stringify(location.state)}`}</p>;
}

function renderPayment() {
  render(
    <MemoryRouter initialEntries={['/payment']}>
      <Routes>
        <Route path="/payment" element={<Payment />} />
        <Route path="*" element={<Where />} />
      </Routes>
    </MemoryRouter>,
  );
}

// Role queries walk every one of the ~250 country options each time: look each group up once.
function group(name: string) {
  return within(screen.getByRole('group', { name }));
}

function fill(fields: ReturnType<typeof group>, label: string, value: string) {
  fireEvent.change(fields.getByLabelText(label), { target: { value } });
}

async function fillEverything(cardNumber = '4242 4242 4242 4242') {
  await screen.findByLabelText('Card number');
  for (const [name, nameLabel] of [
    ['Shipping address', 'Recipient name'],
    ['Billing address', 'Card owner name'],
  ] as const) {
    const fields = group(name);
    fill(fields, nameLabel, 'Sandy Shopper');
    fill(fields, 'Street', '1 Harbour Road');
    fill(fields, 'City', 'Cork');
    fill(fields, 'Postal code', 'T12 X2Y3');
    fill(fields, 'Country', 'IE');
    fill(fields, 'County', 'CO');
  }
  const card = group('Card details');
  fill(card, 'Card number', cardNumber);
  fill(card, 'Expiry date (MM/YY)', '12/34');
  fill(card, 'CVC', '123');
  // Pay now waits for the quote: until it answers, a full payment cannot be told from a deposit.
  await waitFor(() => expect(screen.getByRole('button', { name: /^Pay/ }).hasAttribute('disabled')).toBe(false));
}

const belowLimit = {
  totalCents: 4_000_000,
  cardLimitCents: 99_999_999,
  depositOffered: false,
  depositRequired: false,
  depositCents: null,
  balanceDueDays: 14,
};

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
