import { describe, expect } from 'vitest';

import { createUserWithSession } from '../../helpers/users.js';
import { it } from '../../support/fixtures.js';

// An account made by a provider sign-in has no password: the dashboard must know, so it offers
// "Set a password" (by a reset e-mail) instead of a form that can only answer "wrong password".
describe('the session user says whether the account has a password', () => {
  it('hasPassword is true for a password account and false for a provider-only one', async ({ app }) => {
    const withPassword = await createUserWithSession(app, { password: 'mizzen-mast-at-dawn' });
    const providerOnly = await createUserWithSession(app);

    const a = await app.inject({ method: 'GET', url: '/api/auth/session', headers: withPassword.headers });
    const b = await app.inject({ method: 'GET', url: '/api/auth/session', headers: providerOnly.headers });
    expect(a.json().user).toMatchObject({ id: withPassword.user.id, hasPassword: true });
    expect(b.json().user).toMatchObject({ id: providerOnly.user.id, hasPassword: false });
  });
});
