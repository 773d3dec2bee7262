import { cleanup, render, screen } from '@testing-library/react';
import { act } from 'react';
import { MemoryRouter, RouterProvider, createMemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RemotePage } from './remote-page';

const { loadRemotePage } = vi.hoisted(() => ({ loadRemotePage: vi.fn() }));
vi.mock('./registry', () => ({ loadRemotePage }));

const sendBeacon = vi.fn((_url: string, _body?: BodyInit | null) => true);

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  sendBeacon.mockClear();
  Object.defineProperty(navigator, 'sendBeacon', { value: sendBeacon, configurable: true });
});

afterEach(() => {
  cleanup();
  loadRemotePage.mockReset();
  vi.restoreAllMocks();
});

describe('RemotePage', () => {
  it('shows the remote page once it has loaded', async () => {
    loadRemotePage.mockResolvedValue({ default: () => <h1>Remote cart</h1> });

    render(
      <MemoryRouter>
        <RemotePage remote="mf_cart_checkout" page="Cart" />
      </MemoryRouter>,
    );

    expect(await screen.findByRole('heading', { name: 'Remote cart' })).toBeTruthy();
    expect(loadRemotePage).toHaveBeenCalledWith('mf_cart_checkout', 'Cart');
    expect(sendBeacon).not.toHaveBeenCalled();
  });

  it('says the area is unavailable when the remote fails, and Retry loads it afresh', async () => {
    loadRemotePage.mockRejectedValueOnce(new Error('RUNTIME-003: manifest unreachable'));
    loadRemotePage.mockResolvedValueOnce({ default: () => <h1>Remote account</h1> });

    render(
      <MemoryRouter>
        <RemotePage remote="mf_account" page="Dashboard" />
      </MemoryRouter>,
    );

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('This part of the shop is unavailable right now.');
    // Reported to the shop's server once, with the remote's name and nothing else.
    expect(sendBeacon).toHaveBeenCalledTimes(1);
    expect(sendBeacon.mock.calls[0]![0]).toBe('/remote-failures');
    const body = sendBeacon.mock.calls[0]![1] as Blob;
    expect(body.type).toBe('application/json');
    const text = await new Promise<string>((resolve) => {
      const reader = new FileReader();
      reader.onload = () => resolve(String(reader.result));
      reader.readAsText(body);
    });
    expect(text).toBe('{"remote":"mf_account"}');

    await act(async () => screen.getByRole('button', { name: 'Retry' }).click());

    expect(await screen.findByRole('heading', { name: 'Remote account' })).toBeTruthy();
    expect(loadRemotePage).toHaveBeenCalledTimes(2);
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

describe('RemotePage during a navigation', () => {
  it('shows the failure once instead of importing again on every render React retries', async () => {
    loadRemotePage.mockResolvedValueOnce({ default: () => <h1>Remote home</h1> });
    loadRemotePage.mockRejectedValue(new Error('ChunkLoadError: Loading chunk 997 failed.'));
    const router = createMemoryRouter(
      [
        { path: '/', element: <RemotePage remote="mf_catalog" page="Home" /> },
        { path: '/search', element: <RemotePage remote="mf_catalog" page="Search" /> },
      ],
      { initialEntries: ['/'] },
    );
    render(<RouterProvider router={router} />);
    await screen.findByRole('heading', { name: 'Remote home' });

    await act(() => router.navigate('/search'));

    expect((await screen.findByRole('alert')).textContent).toContain('This part of the shop is unavailable right now.');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(loadRemotePage).toHaveBeenCalledTimes(2);
  });
});
