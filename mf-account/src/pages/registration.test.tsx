import { fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { $session } from '@boatshop/state';
import Registration from './registration';
import { fetchMock, json, stubApiInEveryTest } from '../test/api-stub';

stubApiInEveryTest({ signedOut: true });

function renderRegistration() {
  render(
    <MemoryRouter initialEntries={['/registration']}>
      <Routes>
        <Route path="/registration" element={<Registration />} />
        <Route path="/" element={<p>home page</p>} />
      </Routes>
    </MemoryRouter>,
  );
}

function fillForm(values: Record<string, string>) {
  for (const [label, value] of Object.entries(values)) fireEvent.change(screen.getByLabelText(label), { target: { value } });
}

const filled = {
  'Full Name': 'Sandy Shopper',
  Email: 'sandy@example.com',
  Password: 'mizzen-mast-at-dawn',
  'Confirm Password': 'mizzen-mast-at-dawn',
};

describe('registration page', () => {
  it("says 'Passwords don't match!' above the form without sending anything", async () => {
    renderRegistration();
    expect(screen.getByRole('heading', { name: 'sign up' })).toBeTruthy();
    fillForm({ ...filled, 'Confirm Password': 'mizzen-mast-at-dusk' });
    fireEvent.click(screen.getByRole('button', { name: 'Register' }));

    expect((await screen.findByRole('alert')).textContent).toBe("Passwords don't match!");
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("lists each of the API's password policy messages", async () => {
    const details = ['Password must be at least 8 characters long.', 'This password is too common. Choose one that is harder to guess.'];
    fetchMock.mockReturnValueOnce(json(400, { error: { code: 'VALIDATION', message: 'Please correct the problems listed.', details } }));
    renderRegistration();
    fillForm(filled);
    fireEvent.click(screen.getByRole('button', { name: 'Register' }));

    await screen.findByRole('alert');
    expect(screen.getAllByRole('listitem').map((item) => item.textContent)).toEqual(details);
  });

  it('registers, signs in and goes to /', async () => {
    fetchMock.mockReturnValueOnce(
      json(201, { user: { id: 'u1', displayName: 'Sandy Shopper', email: 'sandy@example.com', userRoles: ['user'], emailVerified: true } }),
    );
    renderRegistration();
    fillForm(filled);
    fireEvent.click(screen.getByRole('button', { name: 'Register' }));

    expect(await screen.findByText('home page')).toBeTruthy();
    expect(JSON.parse(String(fetchMock.mock.calls[0]?.[1].body))).toEqual({
      displayName: 'Sandy Shopper',
      email: 'sandy@example.com',
      password: 'mizzen-mast-at-dawn',
      confirmPassword: 'mizzen-mast-at-dawn',
    });
    expect($session.get().user?.displayName).toBe('Sandy Shopper');
  });
});
