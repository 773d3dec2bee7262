// What the identity routes say to people; the tests and the pages rely on these exact words.

export const WRONG_CREDENTIALS = 'Wrong e-mail or password.';
export const EMAIL_TAKEN = 'An account with this e-mail already exists. Log in or reset your password.';
export { PASSWORDS_DIFFER } from '@boatshop/contract/constants';
export const NAME_MISSING = 'Please enter your full name.';
export const EMAIL_INVALID = 'Please enter a valid e-mail address.';
export const RESET_ACCEPTED = 'If an account exists for this e-mail, we have sent it a link to choose a new password.';
export const RESET_LINK_INVALID = 'This reset link is invalid, expired or already used. Ask for a new one.';
export const WRONG_CURRENT_PASSWORD = 'Your current password is wrong.';
export const VERIFICATION_LINK_INVALID =
  'This confirmation link is invalid, expired or already used. Ask for a new one from your account page.';
export const VERIFICATION_PASSWORD_REQUIRED =
  'This account was not opened in this browser. Choose its password to confirm the address: the password set at sign-up stops working and every device signed in to the account is signed out.';
export const VERIFICATION_SENT = 'We have sent you a new link to confirm your e-mail address.';
export const ALREADY_VERIFIED = 'Your e-mail address is already verified.';
