import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { NamedAddress, SavedAddress } from '@boatshop/contract';
import { SavedAddresses } from './saved-addresses';

const EMPTY: NamedAddress = { name: '', address: { line1: '', city: '', state: '', postal_code: '', country: '' } };

const saved = (id: string, kind: 'shipping' | 'billing', name: string, line1: string, isDefault: boolean): SavedAddress => ({
  id,
  kind,
  isDefault,
  name,
  address: { line1, city: 'Cork', state: 'CO', postal_code: 'T12', country: 'IE' },
  updatedAt: '2026-11-26T00:00:00.000Z',
});

const book = [
  saved('11111111-0000-4000-8000-000000000001', 'shipping', 'Ada', '1 Quay Street', true),
  saved('11111111-0000-4000-8000-000000000002', 'shipping', 'Ada', '3 Marina', false),
  saved('11111111-0000-4000-8000-000000000003', 'billing', 'Ada Ltd', '2 Office Road', true),
];

function Harness({ typed }: { typed?: NamedAddress }) {
  const [shipping, setShipping] = useState<NamedAddress>(typed ?? EMPTY);
  const [billing, setBilling] = useState<NamedAddress>(EMPTY);
  return (
    <>
      <SavedAddresses shipping={shipping} billing={billing} onShipping={setShipping} onBilling={setBilling} />
      <output aria-label="shipping">{`${shipping.name}|${shipping.address.line1}`}</output>
      <output aria-label="billing">{`${billing.name}|${billing.address.line1}`}</output>
    </>
  );
}

describe('saved addresses at checkout', () => {
  beforeEach(() => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.resolve(new Response(JSON.stringify({ addresses: book }), { status: 200 }))),
    );
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('fills in the defaults, and a choice replaces one', async () => {
    render(<Harness />);
    await waitFor(() => expect(screen.getByLabelText('shipping').textContent).toBe('Ada|1 Quay Street'));
    expect(screen.getByLabelText('billing').textContent).toBe('Ada Ltd|2 Office Road');
    fireEvent.change(screen.getByLabelText('Ship to a saved address'), { target: { value: book[1]!.id } });
    expect(screen.getByLabelText('shipping').textContent).toBe('Ada|3 Marina');
  });

  it('leaves alone what the shopper already typed', async () => {
    render(<Harness typed={{ ...EMPTY, name: 'Typed' }} />);
    await waitFor(() => expect(screen.getByLabelText('billing').textContent).toBe('Ada Ltd|2 Office Road'));
    expect(screen.getByLabelText('shipping').textContent).toBe('Typed|');
  });
});
