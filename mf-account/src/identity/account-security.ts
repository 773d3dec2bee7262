import { atom } from 'nanostores';
import type { ChangePasswordBody } from '@boatshop/contract';
import { isApiError } from '@boatshop/contract/client';
import { $session, checkSession, setSessionUser } from '@boatshop/state';
import { client } from '../api';
import { messagesOf, PASSWORDS_DIFFER } from './identity';

// The signed-in user's own security: confirming the e-mail address, the password, and the
// sessions on other devices (docs/ARCHITECTURE.md: /api/auth/verify-email, /password,
// /logout-everywhere).

export interface EmailVerificationState {
  /**
   * `password-required`: the link was opened outside a session of the account, so the address is
   * confirmed only together with a new password (whoever signed up may not own the mailbox).
   */
  status: 'idle' | 'verifying' | 'verified' | 'password-required' | 'saving' | 'verified-with-password' | 'failed';
  errors: string[];
  /** what the API said when it asked for a password */
  message: string | null;
}

/** The /verify-email page's progress. */
export const $emailVerification = atom<EmailVerificationState>({ status: 'idle', errors: [], message: null });

/**
 * Confirms the address with the token from the e-mail's link. The link may be opened signed in as
 * anyone or signed out, so on success the session is asked again rather than guessed. Outside a
 * session of the account the API asks for a new password first (`choosePasswordAndVerify`).
 */
export async function verifyEmail(token: string): Promise<boolean> {
  $emailVerification.set({ status: 'verifying', errors: [], message: null });
  try {
    await client.auth.verifyEmail({ token });
  } catch (error) {
    if (isApiError(error) && error.code === 'PASSWORD_REQUIRED') {
      $emailVerification.set({ status: 'password-required', errors: [], message: error.message });
      return false;
    }
    console.error('E-mail verification failed', error);
    $emailVerification.set({ status: 'failed', errors: messagesOf(error, 'The e-mail address could not be confirmed.'), message: null });
    return false;
  }
  $emailVerification.set({ status: 'verified', errors: [], message: null });
  await checkSession();
  return true;
}

/** The password step of a verification link: the address confirmed and the account's password replaced. */
export async function choosePasswordAndVerify(input: { token: string; password: string; confirmPassword: string }): Promise<boolean> {
  const { message } = $emailVerification.get();
  if (input.password !== input.confirmPassword) {
    $emailVerification.set({ status: 'password-required', errors: [PASSWORDS_DIFFER], message });
    return false;
  }
  $emailVerification.set({ status: 'saving', errors: [], message });
  try {
    await client.auth.verifyEmail(input);
  } catch (error) {
    console.error('E-mail verification with a new password failed', error);
    $emailVerification.set({
      status: 'password-required',
      errors: messagesOf(error, 'The e-mail address could not be confirmed.'),
      message,
    });
    return false;
  }
  $emailVerification.set({ status: 'verified-with-password', errors: [], message: null });
  // Every session of the account ended, this browser's too if it had one.
  await checkSession();
  return true;
}

export interface VerificationResendState {
  status: 'idle' | 'sending' | 'sent' | 'failed';
  /** what the API said: that the e-mail is on its way, or why not */
  message: string | null;
}

export const $verificationResend = atom<VerificationResendState>({ status: 'idle', message: null });

/** Asks for another verification e-mail (the API allows a few per 15 minutes). */
export async function resendVerificationEmail(): Promise<boolean> {
  $verificationResend.set({ status: 'sending', message: null });
  try {
    const { message } = await client.auth.resendVerification();
    $verificationResend.set({ status: 'sent', message });
    return true;
  } catch (error) {
    console.error('Resending the verification e-mail failed', error);
    if (isApiError(error) && error.code === 'ALREADY_VERIFIED') {
      // Verified meanwhile, e.g. in another tab: the notice has nothing left to say.
      $verificationResend.set({ status: 'idle', message: null });
      await checkSession();
      return false;
    }
    $verificationResend.set({ status: 'failed', message: messagesOf(error, 'The e-mail could not be sent.').join(' ') });
    return false;
  }
}

export interface PasswordChangeState {
  status: 'idle' | 'saving' | 'saved' | 'failed';
  errors: string[];
}

export const $passwordChange = atom<PasswordChangeState>({ status: 'idle', errors: [] });

/** Sets a new password; the API signs every other device out and gives this browser a new session. */
export async function changePassword(input: ChangePasswordBody): Promise<boolean> {
  if (input.password !== input.confirmPassword) {
    $passwordChange.set({ status: 'failed', errors: [PASSWORDS_DIFFER] });
    return false;
  }
  $passwordChange.set({ status: 'saving', errors: [] });
  try {
    const { user } = await client.auth.changePassword(input);
    setSessionUser(user);
    $passwordChange.set({ status: 'saved', errors: [] });
    return true;
  } catch (error) {
    console.error('Changing the password failed', error);
    $passwordChange.set({ status: 'failed', errors: messagesOf(error, 'The password could not be changed.') });
    return false;
  }
}

/** Forgets the password form's outcome, e.g. when the dashboard is left. */
export function resetPasswordChange(): void {
  $passwordChange.set({ status: 'idle', errors: [] });
}

export const $signOutEverywhereError = atom<string | null>(null);

/**
 * Revokes every session of the user, this one included. A 401 means this session was already
 * gone: signed out here all the same.
 */
export async function signOutEverywhere(): Promise<boolean> {
  $signOutEverywhereError.set(null);
  try {
    await client.auth.logoutEverywhere();
  } catch (error) {
    if (!(isApiError(error) && error.status === 401)) {
      console.error('Signing out everywhere failed', error);
      $signOutEverywhereError.set(isApiError(error) ? error.message : 'Signing out everywhere failed.');
      return false;
    }
  }
  if ($session.get().user) setSessionUser(null);
  return true;
}
