import { describe, expect, it } from 'vitest';
import { passwordPolicyProblems } from './password-policy.js';

describe('passwordPolicyProblems', () => {
  it('accepts a long, uncommon password that is not the e-mail', () => {
    expect(passwordPolicyProblems('mizzen-mast-at-dawn', 'sandy@example.com')).toEqual([]);
  });

  it('names every broken rule at once', () => {
    expect(passwordPolicyProblems('short', 'sandy@example.com')).toEqual(['Password must be at least 8 characters long.']);
    expect(passwordPolicyProblems('x'.repeat(129), 'sandy@example.com')).toEqual(['Password must be at most 128 characters long.']);
    expect(passwordPolicyProblems('Password123', 'sandy@example.com')).toEqual([
      'This password is too common. Choose one that is harder to guess.',
    ]);
  });

  it('refuses the e-mail address itself, whatever its case', () => {
    expect(passwordPolicyProblems('Sandy@Example.com', 'sandy@example.com')).toEqual(['Password must not be your e-mail address.']);
  });
});
