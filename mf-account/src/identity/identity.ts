import { atom } from 'nanostores';
import type { LoginBody, PasswordResetConfirmBody, RegisterBody } from '@boatshop/contract';
import { isApiError } from '@boatshop/contract/client';
import { API_BASE, PASSWORDS_DIFFER } from '@boatshop/contract/constants';
import { checkSession, setSessionUser } from '@boatshop/state';
import { client } from '../api';

// The identity screens' logic (sign-in, sign-up, password reset), this remote's own: the shared
// core keeps only the session itself ($session, checkSession, signOut).

/** Messages for the identity screens (sign-in, sign-up, password reset), shown as a list. */
export const $userErr = atom<string[]>([]);

/**
 * Set when a password-reset e-mail was requested; the reset page then resets the
 * user state and goes to /login.
 */
export const $resetPasswordSuccess = atom(false);

export { PASSWORDS_DIFFER };

/** What a failed call means to a person: the API's list when it sent one, else its message. */
export function messagesOf(error: unknown, fallback: string): string[] {
  if (!isApiError(error)) return [fallback];
  return error.details.length > 0 ? error.details : [error.message];
}

function fail(context: string, error: unknown, fallback: string): false {
  console.error(context, error);
  $userErr.set(messagesOf(error, fallback));
  return false;
}

/** The identity screens start over (errors and the reset flag). */
export function resetUserState(): void {
  $userErr.set([]);
  $resetPasswordSuccess.set(false);
}

/** E-mail sign-in. On success the user is in $session and the errors are cleared. */
export async function signIn(input: LoginBody): Promise<boolean> {
  $userErr.set([]);
  try {
    const { user } = await client.auth.login(input);
    setSessionUser(user);
    return true;
  } catch (error) {
    return fail('Sign-in failed', error, 'Sign-in failed');
  }
}

/**
 * Registers and signs in. Differing passwords are caught here before anything is sent; the API
 * checks again and adds its password policy and duplicate e-mail messages to the list.
 */
export async function signUp(input: RegisterBody): Promise<boolean> {
  if (input.password !== input.confirmPassword) {
    $userErr.set([PASSWORDS_DIFFER]);
    return false;
  }
  $userErr.set([]);
  try {
    const { user } = await client.auth.register(input);
    setSessionUser(user);
    return true;
  } catch (error) {
    return fail('Sign-up failed', error, 'Sign-up failed');
  }
}

/**
 * Asks for a reset e-mail. Resolves with the API's note (the same whether or not the account
 * exists) and sets $resetPasswordSuccess; on failure the reasons go to $userErr.
 */
export async function requestPasswordReset(email: string): Promise<string | null> {
  $userErr.set([]);
  try {
    const { message } = await client.auth.requestPasswordReset({ email });
    $resetPasswordSuccess.set(true);
    return message;
  } catch (error) {
    fail('Password reset request failed', error, 'The reset e-mail could not be requested');
    return null;
  }
}

/** Sets the new password with the token from the e-mail's link. */
export async function confirmPasswordReset(input: PasswordResetConfirmBody): Promise<boolean> {
  if (input.password !== input.confirmPassword) {
    $userErr.set([PASSWORDS_DIFFER]);
    return false;
  }
  $userErr.set([]);
  try {
    await client.auth.confirmPasswordReset(input);
    return true;
  } catch (error) {
    return fail('Password reset failed', error, 'The password could not be changed');
  }
}

/** What the API's sign-in popup posts to this window (api/src/features/auth/oidc-popup-page.ts). */
interface OidcPopupMessage {
  type: 'boatshop:oidc';
  ok: boolean;
  message?: string;
}

function isOidcPopupMessage(data: unknown): data is OidcPopupMessage {
  return typeof data === 'object' && data !== null && (data as { type?: unknown }).type === 'boatshop:oidc';
}

const POPUP_FEATURES = 'popup,width=480,height=640';
/** How often to look whether the person closed the popup without finishing. */
const POPUP_POLL_MS = 500;

/**
 * Social sign-in: opens the API's OpenID Connect flow in a popup (call it straight from the
 * click, or the browser blocks the popup), waits for the popup's message, then asks the API who
 * is signed in. Only a message from this shop's own origin counts.
 */
export function signInWithGoogle(): Promise<boolean> {
  $userErr.set([]);
  const popup = window.open(`${API_BASE}/auth/oidc/start`, 'boatshop-oidc', POPUP_FEATURES);
  if (!popup) {
    $userErr.set(['Allow pop-ups for this site to sign in with Google.']);
    return Promise.resolve(false);
  }
  popup.focus();

  return new Promise((resolve) => {
    let settled = false;
    const settle = async (message: OidcPopupMessage | null) => {
      if (settled) return;
      settled = true;
      window.removeEventListener('message', onMessage);
      clearInterval(closedPoll);
      if (message && !message.ok) {
        $userErr.set([message.message ?? 'Sign-in did not complete.']);
        resolve(false);
        return;
      }
      // Also when the popup closed without a word: it may have signed in just before closing.
      const { user } = await checkSession();
      resolve(user !== null);
    };
    const onMessage = (event: MessageEvent) => {
      if (event.origin !== window.location.origin || event.source !== popup || !isOidcPopupMessage(event.data)) return;
      void settle(event.data);
    };
    window.addEventListener('message', onMessage);
    const closedPoll = setInterval(() => {
      if (popup.closed) void settle(null);
    }, POPUP_POLL_MS);
  });
}
