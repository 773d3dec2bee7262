import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import PasswordResetConfirm from './password-reset-confirm';

afterEach(() => {
  cleanup();
});

describe('account pages', () => {
  it('say so when a reset link has no token', () => {
    render(
      <MemoryRouter initialEntries={['/password-reset/confirm']}>
        <PasswordResetConfirm />
      </MemoryRouter>,
    );

    expect(screen.getByText('This link has no reset token.')).toBeTruthy();
  });
});
