import { useTestStorageEngine } from '@nanostores/persistent';
import { fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { addToCart } from '@boatshop/state';
import { resetAfterPageTest } from '../test/reset-cart';
import { BuyerType } from './buyer-type';

type Handler = (url: string, init: RequestInit) => Promise<Response>;
const fetchMock = vi.fn<Handler>();
const json = (status: number, body: unknown) => Promise.resolve(new Response(JSON.stringify(body), { status }));
const yacht = {
  id: '55555555-0000-4000-8000-000000000005',
  name: 'Belmare 64',
  thumbnailUrl: '/api/images/b.svg',
  priceCents: 289_000_000,
};

const line = { productId: yacht.id, quantity: 1, rateBasisPoints: 0, vatCountry: null, showsVat: true };
const valid = {
  checkId: '66666666-0000-4000-8000-000000000006',
  buyerType: 'business',
  country: 'FR',
  vatId: 'FR40303265045',
  vies: 'valid',
  consultationNumber: 'WAPI0123',
  traderName: 'Voiles SARL',
  lines: [
    {
      ...line,
      vatCase: 'intra_community',
      netCents: 242_857_143,
      vatCents: 0,
      totalCents: 242_857_143,
      wording: 'Intra-Community supply exempt from VAT',
    },
  ],
  netCents: 242_857_143,
  vatCents: 0,
  totalCents: 242_857_143,
};

beforeAll(() => useTestStorageEngine());
beforeEach(() => {
  document.cookie = 'csrf=t; path=/';
  vi.stubGlobal('fetch', fetchMock);
  addToCart(yacht);
});
afterEach(() => resetAfterPageTest(fetchMock));

describe('BuyerType', () => {
  it('a private buyer sends nothing and reads that prices include VAT', () => {
    render(<BuyerType country="FR" />);
    expect(screen.getByText(/^Prices include VAT, except where a sale to your country is exempt here/)).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('a business with a confirmed VAT ID sees the net price the API decided, and the wording', async () => {
    fetchMock.mockImplementation((url, init) => {
      expect(url).toBe('/api/vat/buyer-checks');
      expect(JSON.parse(init.body as string)).toEqual({
        buyerType: 'business',
        country: 'FR',
        vatId: 'FR40303265045',
        items: [{ productId: yacht.id, quantity: 1 }],
      });
      return json(201, valid);
    });
    render(<BuyerType country="FR" />);
    fireEvent.change(screen.getByLabelText('I buy as'), { target: { value: 'business' } });
    fireEvent.change(screen.getByLabelText('VAT ID'), { target: { value: 'FR40303265045' } });
    fireEvent.click(screen.getByRole('button', { name: 'Check VAT ID' }));
    expect(await screen.findByText(/confirmed by VIES \(consultation WAPI0123\)/)).toBeTruthy();
    expect(screen.getByText(/^Price without VAT:/).textContent).toContain('2.428.571,43');
    expect(screen.getByText('Intra-Community supply exempt from VAT')).toBeTruthy();
  });

  it('an unconfirmed VAT ID is charged VAT, as the API says', async () => {
    fetchMock.mockImplementation(() =>
      json(201, {
        ...valid,
        vies: 'unavailable',
        consultationNumber: null,
        vatCents: 48_166_667,
        totalCents: 289_000_000,
        lines: [{ ...valid.lines[0], vatCase: 'standard', wording: '' }],
      }),
    );
    render(<BuyerType country="FR" />);
    fireEvent.change(screen.getByLabelText('I buy as'), { target: { value: 'business' } });
    fireEvent.change(screen.getByLabelText('VAT ID'), { target: { value: 'FR40303260000' } });
    fireEvent.click(screen.getByRole('button', { name: 'Check VAT ID' }));
    expect(await screen.findByText(/VIES cannot confirm the VAT ID/)).toBeTruthy();
    expect(screen.getByText(/^Price including VAT:/).textContent).toContain('2.890.000,00');
  });
});
