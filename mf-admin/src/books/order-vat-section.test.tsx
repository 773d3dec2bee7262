import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { OrderVatStatus, VatCorrection } from '@boatshop/contract';
import { signInAs } from '../test/staff-session';
import { OrderVatSection } from './order-vat-section';

const ORDER = '9f3c2a1b-1111-4111-8111-111111111111';
const unconfirmed: OrderVatStatus = {
  orderId: ORDER,
  buyerType: 'business',
  vatId: 'FR40303265045',
  vies: 'unavailable',
  consultationNumber: null,
  correction: null,
  correctable: true,
};
const corrected: VatCorrection = {
  orderId: ORDER,
  vatId: 'FR40303265045',
  consultationNumber: 'WAPI00AA11BB22CC',
  creditNotes: [{ id: '3c3c3c3c-1111-4111-8111-111111111111', number: 'CN-2026-000004', kind: 'credit_note', totalCents: 12_000_000 }],
  reissued: [{ id: '3c3c3c3c-2222-4111-8111-111111111111', number: '2026-000031', kind: 'invoice', totalCents: 10_000_000 }],
  totalCents: 10_000_000,
  owedCents: 2_000_000,
};

let calls: { method: string; url: string }[];
let status: OrderVatStatus;
let correctionAnswer: Response;

beforeEach(() => {
  document.cookie = 'csrf=test-token';
  calls = [];
  status = unconfirmed;
  correctionAnswer = new Response(JSON.stringify(corrected), { status: 200 });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      calls.push({ method: init.method ?? 'GET', url });
      if (init.method === 'POST') {
        status = {
          ...unconfirmed,
          vies: 'valid',
          consultationNumber: corrected.consultationNumber,
          correctable: false,
          correction: { at: '2026-11-26T07:00:00.000Z', owedCents: 2_000_000, settledCents: 0 },
        };
        return correctionAnswer;
      }
      return new Response(JSON.stringify(status), { status: 200 });
    }),
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the order page VAT section', () => {
  it('lets an accountant ask VIES again and tells what was issued and what is owed back', async () => {
    signInAs('accountant');
    const changed = vi.fn();
    render(<OrderVatSection orderId={ORDER} onChanged={changed} />);
    expect(await screen.findByText('FR40303265045 (VIES was unavailable)')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Ask VIES again and correct the invoices' }));
    const told = await screen.findByText(/VIES confirmed FR40303265045/);
    const text = told.textContent!.replace(/\u00a0/g, ' ');
    expect(text).toContain('Credit notes CN-2026-000004 cancel the invoices with VAT; 2026-000031 replace them.');
    expect(text).toContain('Refund 20.000,00 € of VAT to the buyer.');
    expect(calls.filter((call) => call.method === 'POST').map((call) => call.url)).toEqual([`/api/admin/vat/orders/${ORDER}/correction`]);
    expect(await screen.findByText((content) => content.replace(/\u00a0/g, ' ') === '20.000,00 €, refunded 0,00 €')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Ask VIES again and correct the invoices' })).toBeNull();
    expect(changed).toHaveBeenCalledTimes(1);
  });

  it("shows VIES's refusal as the API words it", async () => {
    signInAs('owner');
    correctionAnswer = new Response(
      JSON.stringify({
        error: { code: 'VAT_ID_NOT_CONFIRMED', message: 'VIES is still unavailable for this member state: try again later.' },
      }),
      { status: 409 },
    );
    render(<OrderVatSection orderId={ORDER} onChanged={() => undefined} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Ask VIES again and correct the invoices' }));
    expect(await screen.findByText('VIES is still unavailable for this member state: try again later.')).toBeTruthy();
  });

  it('offers no correction to an editor, and shows nothing for a consumer', async () => {
    signInAs('editor');
    render(<OrderVatSection orderId={ORDER} onChanged={() => undefined} />);
    expect(screen.queryByRole('heading', { name: 'VAT' })).toBeNull();
    expect(calls).toEqual([]);
    cleanup();
    signInAs('owner');
    status = { ...unconfirmed, buyerType: 'consumer', vatId: null, vies: 'not_checked', correctable: false };
    render(<OrderVatSection orderId={ORDER} onChanged={() => undefined} />);
    await vi.waitFor(() => expect(calls).toHaveLength(1));
    expect(screen.queryByRole('heading', { name: 'VAT' })).toBeNull();
  });
});
