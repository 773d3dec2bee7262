import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Product, SessionUser } from '@boatshop/contract';
import { setSessionUser } from '@boatshop/state';
import { AskQuestion } from './ask-question';

const boat: Product = {
  id: '3f1c2b9a-6d4e-4f10-9a2b-5c6d7e8f9a0b',
  name: 'Belmare 64 Sport',
  thumbnailUrl: '/api/images/boat.svg',
  priceCents: 289_000_000,
  descriptionHtml: '<p>A boat</p>',
  category: 'yachts',
  createdAt: '2024-11-21T00:00:00.000Z',
  stock: null,
  availability: 'in_stock',
};

const shopper: SessionUser = {
  id: 'u1',
  displayName: 'Sandy',
  email: 'sandy@example.test',
  userRoles: ['user'],
  emailVerified: true,
  hasPassword: true,
};

let fetchMock: ReturnType<typeof vi.fn<(input: string, init?: RequestInit) => Promise<Response>>>;
const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const enquiryCalls = () => fetchMock.mock.calls.filter(([input]) => new URL(input, 'http://shop.test').pathname === '/api/enquiries');
const sentBody = () => JSON.parse(String(enquiryCalls().at(-1)![1]!.body)) as Record<string, unknown>;

/** The API: the session route (which hands out the csrf cookie) and this answer to the question. */
function answerEnquiryWith(response: () => Response) {
  fetchMock.mockImplementation(async (input) =>
    new URL(input, 'http://shop.test').pathname === '/api/auth/session' ? json({ user: null }) : response(),
  );
}

beforeEach(() => {
  fetchMock = vi.fn<(input: string, init?: RequestInit) => Promise<Response>>();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  setSessionUser(null);
});

describe('Ask a question', () => {
  it("asks a guest for name and e-mail, sends the honeypot as typed, and says to confirm by the e-mail's link", async () => {
    answerEnquiryWith(() => json({ outcome: 'confirm-by-email', id: null }, 202));
    render(<AskQuestion product={boat} />);
    fireEvent.click(screen.getByRole('button', { name: 'Ask a question' }));
    fireEvent.change(screen.getByLabelText('Your name'), { target: { value: 'Gina' } });
    fireEvent.change(screen.getByLabelText('Your e-mail'), { target: { value: 'gina@example.test' } });
    fireEvent.change(screen.getByLabelText('Your question about the Belmare 64 Sport'), { target: { value: 'Teak deck?' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send question' }));

    expect((await screen.findByRole('status')).textContent).toContain('Open its link to confirm your question');
    expect(enquiryCalls()).toHaveLength(1);
    expect(sentBody()).toEqual({ productId: boat.id, message: 'Teak deck?', name: 'Gina', email: 'gina@example.test', website: '' });
  });

  it("sends a signed-in shopper's question alone and lists the API's problems", async () => {
    setSessionUser(shopper);
    answerEnquiryWith(() => json({ error: { code: 'RATE_LIMITED', message: 'You have sent several questions in the last hour.' } }, 429));
    render(<AskQuestion product={boat} />);
    fireEvent.click(screen.getByRole('button', { name: 'Ask a question' }));
    expect(screen.queryByLabelText('Your e-mail')).toBeNull();
    fireEvent.change(screen.getByLabelText('Your question about the Belmare 64 Sport'), { target: { value: 'Hi' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send question' }));

    expect((await screen.findByRole('alert')).textContent).toContain('You have sent several questions in the last hour.');
    expect(sentBody()).toEqual({ productId: boat.id, message: 'Hi', website: '' });
  });
});
