import { fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it, vi } from 'vitest';
import type { SavedAddress } from '@boatshop/contract';
import { $addressBook } from '../addresses/address-book';
import { fetchMock, json, stubApiInEveryTest } from '../test/api-stub';
import Addresses from './addresses';

// A small stand-in for the dataset keeps the page light in jsdom.
vi.mock('country-region-data', () => ({
  allCountries: [
    ['Atlantis', 'AQ', []],
    [
      'Ireland',
      'IE',
      [
        ['Cork', 'CO'],
        ['Galway', 'G'],
      ],
    ],
  ],
}));

stubApiInEveryTest();

const home: SavedAddress = {
  id: '11111111-0000-4000-8000-000000000001',
  kind: 'shipping',
  isDefault: true,
  name: 'Ada Lovelace',
  address: { line1: '1 Quay Street', city: 'Cork', state: 'CO', postal_code: 'T12', country: 'IE' },
  updatedAt: '2026-11-26T10:00:00.000Z',
};
const marina: SavedAddress = {
  ...home,
  id: '11111111-0000-4000-8000-000000000002',
  isDefault: false,
  address: { ...home.address, line1: '3 Marina' },
};

function renderPage() {
  $addressBook.set({ status: 'idle', addresses: [], notice: null });
  render(
    <MemoryRouter>
      <Addresses />
    </MemoryRouter>,
  );
}

describe('the address book page', () => {
  it('lists addresses by kind with the region and country by name, and makes another the default', async () => {
    fetchMock.mockReturnValueOnce(json(200, { addresses: [home, marina] }));
    renderPage();
    const shipping = await screen.findByRole('region', { name: 'Shipping addresses' });
    const first = within(shipping).getByRole('listitem', { name: 'Ada Lovelace, 1 Quay Street' });
    expect(first.textContent).toContain('Cork, Ireland');
    expect(within(first).getByText('Default')).toBeTruthy();
    expect(within(screen.getByRole('region', { name: 'Billing addresses' })).getByText('None saved yet.')).toBeTruthy();

    fetchMock.mockReturnValueOnce(
      json(200, {
        addresses: [
          { ...marina, isDefault: true },
          { ...home, isDefault: false },
        ],
      }),
    );
    const second = within(shipping).getByRole('listitem', { name: 'Ada Lovelace, 3 Marina' });
    fireEvent.click(within(second).getByRole('button', { name: 'Make default' }));
    await screen.findByText('The default address was changed.');
    expect(fetchMock.mock.calls[1]![0]).toBe(`/api/account/addresses/${marina.id}/default`);
    expect(within(within(shipping).getByRole('listitem', { name: 'Ada Lovelace, 3 Marina' })).getByText('Default')).toBeTruthy();
  });

  it('saves a new billing address with the county chosen from the country’s list', async () => {
    fetchMock.mockReturnValueOnce(json(200, { addresses: [] }));
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Add an address' }));
    const form = screen.getByRole('form', { name: 'New address' });
    fireEvent.click(within(form).getByLabelText('Billing'));
    fireEvent.change(within(form).getByLabelText('Name'), { target: { value: 'Ada Ltd' } });
    fireEvent.change(within(form).getByLabelText('Street'), { target: { value: '2 Office Road' } });
    fireEvent.change(within(form).getByLabelText('City'), { target: { value: 'Galway' } });
    fireEvent.change(within(form).getByLabelText('Postal code'), { target: { value: 'H91' } });
    fireEvent.change(within(form).getByLabelText('Country'), { target: { value: 'IE' } });
    fireEvent.change(within(form).getByLabelText('County'), { target: { value: 'G' } });

    fetchMock.mockReturnValueOnce(json(201, { ...home, kind: 'billing' }));
    fetchMock.mockReturnValueOnce(json(200, { addresses: [{ ...home, kind: 'billing' }] }));
    fireEvent.click(within(form).getByRole('button', { name: 'Save address' }));
    await screen.findByText('The address was saved.');
    const [url, init] = fetchMock.mock.calls[1]!;
    expect(url).toBe('/api/account/addresses');
    expect(init).toMatchObject({ method: 'POST' });
    expect(JSON.parse(init!.body as string)).toEqual({
      kind: 'billing',
      name: 'Ada Ltd',
      address: { line1: '2 Office Road', city: 'Galway', state: 'G', postal_code: 'H91', country: 'IE' },
      isDefault: false,
    });
    expect(screen.queryByRole('form', { name: 'New address' })).toBeNull();
  });
});
