import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '@boatshop/contract';

/**
 * The most used passwords of at least 8 characters in public breach lists: the first ones an
 * attacker tries. A short list on purpose; length does most of the work.
 */
const COMMON_PASSWORDS = new Set([
  '12345678',
  '123456789',
  '1234567890',
  '12345678910',
  '87654321',
  '11111111',
  '00000000',
  '88888888',
  '123123123',
  '1q2w3e4r',
  '1q2w3e4r5t',
  'qwertyuiop',
  'qwerty123',
  'qwerty12345',
  '1qaz2wsx',
  'asdfghjkl',
  'zaq12wsx',
  'password',
  'password1',
  'password12',
  'password123',
  'password!',
  'passw0rd',
  'p@ssw0rd',
  'iloveyou',
  'sunshine',
  'princess',
  'football',
  'baseball',
  'superman',
  'starwars',
  'whatever',
  'trustno1',
  'welcome1',
  'welcome123',
  'letmein1',
  'abc12345',
  'abcd1234',
  'aa123456',
  'changeme',
  'computer',
  'michelle',
  'jennifer',
  'corvette',
  'mercedes',
  'internet',
  'sailboat',
  'sailing1',
  'boatshop',
  'yachting',
]);

/**
 * Every rule a new password breaks, as messages a form can list. Empty when it is acceptable.
 * The e-mail comparison ignores case and surrounding spaces, as logins do.
 */
export function passwordPolicyProblems(password: string, email: string): string[] {
  const problems: string[] = [];
  if (password.length < MIN_PASSWORD_LENGTH) {
    problems.push(`Password must be at least ${MIN_PASSWORD_LENGTH} characters long.`);
  }
  if (password.length > MAX_PASSWORD_LENGTH) {
    problems.push(`Password must be at most ${MAX_PASSWORD_LENGTH} characters long.`);
  }
  const normalised = password.trim().toLowerCase();
  if (email.trim() !== '' && normalised === email.trim().toLowerCase()) {
    problems.push('Password must not be your e-mail address.');
  }
  if (COMMON_PASSWORDS.has(normalised)) {
    problems.push('This password is too common. Choose one that is harder to guess.');
  }
  return problems;
}
