import { render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import VerifyEmail from './verify-email';
import { fetchMock, stubApiInEveryTest } from '../test/api-stub';

stubApiInEveryTest();

function Where() {
  const location = useLocation();
  return <output aria-label="location">{location.pathname + location.search}</output>;
}

// Like the reset link: the verification token must not stay in the address bar (history, synced
// tabs, a shared screen, Referer) once the page has read it.
describe('the e-mail verification link', () => {
  it('takes the token out of the address as soon as the page has read it, and still verifies with it', async () => {
    fetchMock.mockReturnValueOnce(Promise.resolve(new Response(null, { status: 204 })));
    render(
      <MemoryRouter initialEntries={['/verify-email?token=secret-verify-token&utm=mail']}>
        <Routes>
          <Route path="/verify-email" element={<VerifyEmail />} />
        </Routes>
        <Where />
      </MemoryRouter>,
    );

    expect(await screen.findByText('Your e-mail address is confirmed. Thank you!', {}, { timeout: 5000 })).toBeTruthy();
    expect(screen.getByLabelText('location').textContent).toBe('/verify-email?utm=mail');
    const verifyCalls = fetchMock.mock.calls.filter((call) => String(call[0]).includes('/auth/verify-email'));
    expect(verifyCalls).toHaveLength(1);
    expect(JSON.parse(String(verifyCalls[0]?.[1].body))).toEqual({ token: 'secret-verify-token' });
  });
});
