import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import type { PrivacyStatus } from '@boatshop/contract';
import { $privacy } from '../privacy/privacy';
import { fetchMock, json, stubApiInEveryTest } from '../test/api-stub';
import EraseAccount from './erase-account';
import YourData from './your-data';

stubApiInEveryTest();

const status = (overrides: Partial<PrivacyStatus> = {}): PrivacyStatus => ({
  consents: [
    { topic: 'boat_alerts', granted: false, recordedAt: null },
    { topic: 'newsletter', granted: true, recordedAt: '2026-11-20T10:00:00.000Z' },
  ],
  export: null,
  erasureBlockers: [],
  erasureRequested: false,
  ...overrides,
});

function renderAt(path: string) {
  $privacy.set({ status: 'idle', data: null, notice: null });
  render(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route path="/account/data" element={<YourData />} />
        <Route path="/account/erase" element={<EraseAccount />} />
        <Route path="/login" element={<p>login page</p>} />
      </Routes>
    </MemoryRouter>,
  );
}

describe('your data', () => {
  it('shows each consent with its wording and saves a change', async () => {
    fetchMock.mockReturnValueOnce(json(200, status()));
    renderAt('/account/data');
    const alerts = await screen.findByRole('checkbox', { name: /E-mail me when a boat matching my saved searches comes in/ });
    expect((alerts as HTMLInputElement).checked).toBe(false);
    expect(screen.getByText(/answered 20\/11\/2026/)).toBeTruthy();

    fetchMock.mockReturnValueOnce(
      json(200, status({ consents: [{ topic: 'boat_alerts', granted: true, recordedAt: '2026-11-26T10:00:00.000Z' }] })),
    );
    fireEvent.click(alerts);
    await screen.findByText('Your choice was saved.');
    const [url, init] = fetchMock.mock.calls[1]!;
    expect(url).toBe('/api/account/privacy/consents');
    expect(init).toMatchObject({ method: 'PUT', body: JSON.stringify({ topic: 'boat_alerts', granted: true }) });
  });

  it('asks for an export and says the link comes by e-mail', async () => {
    fetchMock.mockReturnValueOnce(json(200, status()));
    renderAt('/account/data');
    const exportButton = await screen.findByRole('button', { name: 'Export my data' });
    fetchMock.mockReturnValueOnce(
      json(202, { id: 'e1', state: 'preparing', createdAt: '2026-11-26T10:00:00.000Z', expiresAt: '2026-12-03T10:00:00.000Z' }),
    );
    fetchMock.mockReturnValueOnce(
      json(
        200,
        status({ export: { id: 'e1', state: 'preparing', createdAt: '2026-11-26T10:00:00.000Z', expiresAt: '2026-12-03T10:00:00.000Z' } }),
      ),
    );
    fireEvent.click(exportButton);
    await screen.findByText(/You will receive an e-mail with a download link/);
    expect((screen.getByRole('button', { name: 'Export my data' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('lists why the account cannot be erased yet, and offers no erasure then', async () => {
    fetchMock.mockReturnValueOnce(
      json(200, status({ erasureBlockers: ['Order 1A2B3C4D still holds a boat for you: pay it or cancel it first.'] })),
    );
    renderAt('/account/data');
    await screen.findByText(/still holds a boat for you/);
    expect((screen.getByRole('button', { name: 'Erase my account' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('erases only when the button on the link’s page is pressed, then goes to the log-in page', async () => {
    renderAt('/account/erase?token=t0ken');
    expect(fetchMock).not.toHaveBeenCalled();
    fetchMock.mockReturnValueOnce(Promise.resolve(new Response(null, { status: 204 })));
    fireEvent.click(screen.getByRole('button', { name: 'Erase my account now' }));
    await screen.findByText('login page');
    expect(fetchMock.mock.calls[0]![0]).toBe('/api/account/privacy/erasure/confirm');
  });

  it('shows why the erasure was refused', async () => {
    renderAt('/account/erase?token=t0ken');
    fetchMock.mockReturnValueOnce(
      json(409, { error: { code: 'ERASURE_BLOCKED', message: 'Your account cannot be erased yet.', details: ['Order X is still open.'] } }),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Erase my account now' }));
    await waitFor(() => expect(screen.getByText('Order X is still open.')).toBeTruthy());
  });
});
