import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { expect } from 'vitest';
import { $cartTotalCents } from '@boatshop/state';
import Payment from '../pages/payment';

// The payment page's tests share this: the API and the card stand-in as the page meets them, the
// page in a router, and the form filled in as a shopper would.

export const STANDIN = 'http://127.0.0.1:4020';
export const ORDER_ID = '44444444-0000-4000-8000-000000000004';
export const CLIENT_SECRET = 'pi_test123_secret_abc';
export const sloop = {
  id: '55555555-0000-4000-8000-000000000005',
  name: 'Sloop 28',
  thumbnailUrl: '/api/images/sloop.svg',
  priceCents: 2_000_000,
};

export type Handler = (url: string, init: RequestInit) => Promise<Response>;
export const json = (status: number, body: unknown) => Promise.resolve(new Response(JSON.stringify(body), { status }));

/** The API and the stand-in as the page meets them; `overrides` replaces the answer for one URL. */
export function backend(overrides: Record<string, () => Promise<Response>> = {}): Handler {
  return (url) => {
    const override = overrides[url];
    if (override) return override();
    if (url === '/api/payments/config') return json(200, { provider: 'local', publishableKey: 'pk_test_dev', localApiBase: STANDIN });
    // The quote prices the cart as the catalogue does (a consumer at home: the gross total).
    if (url === '/api/payments/quote') return json(200, { ...belowLimit, totalCents: $cartTotalCents.get() });
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

export function renderPayment() {
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
export function group(name: string) {
  return within(screen.getByRole('group', { name }));
}

export function fill(fields: ReturnType<typeof group>, label: string, value: string) {
  fireEvent.change(fields.getByLabelText(label), { target: { value } });
}

export async function fillEverything(cardNumber = '4242 4242 4242 4242') {
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

export const belowLimit = {
  totalCents: 4_000_000,
  cardLimitCents: 99_999_999,
  depositOffered: false,
  depositRequired: false,
  depositCents: null,
  balanceDueDays: 14,
};
