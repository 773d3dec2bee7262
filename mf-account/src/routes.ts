import type { RouteData } from '@boatshop/web-shared/route-data';

/**
 * The account's pages, as data (docs/ARCHITECTURE.md, "Module Federation"): the build writes
 * them to dist/routes.json, and the shell builds its router from them at run time, with the
 * guard (`access`) and the layout each names. `module` is one of the exposes in
 * rspack.config.ts; `title` is the page's title in the HTML the shell's server sends.
 */
export const routes = [
  { path: '/login', module: './Login', access: 'guest-only', layout: 'main', title: 'Log in' },
  { path: '/registration', module: './Registration', access: 'guest-only', layout: 'main', title: 'Register' },
  { path: '/password-reset', module: './PasswordReset', access: 'public', layout: 'main', title: 'Reset your password' },
  {
    path: '/password-reset/confirm',
    module: './PasswordResetConfirm',
    access: 'public',
    layout: 'main',
    title: 'Choose a new password',
  },
  { path: '/verify-email', module: './VerifyEmail', access: 'public', layout: 'main', title: 'Verify your email' },
  { path: '/staff-invitation', module: './StaffInvitation', access: 'public', layout: 'main', title: 'Staff invitation' },
  { path: '/dashboard', module: './Dashboard', access: 'signed-in', layout: 'dashboard', title: 'Your account' },
  { path: '/order/:orderID', module: './Order', access: 'signed-in', layout: 'dashboard', title: 'Your order' },
  // sales: conversations with the shop
  { path: '/messages', module: './Messages', access: 'signed-in', layout: 'dashboard', title: 'Messages' },
  { path: '/messages/:enquiryID', module: './Conversation', access: 'signed-in', layout: 'dashboard', title: 'Messages' },
  { path: '/enquiries/confirm', module: './ConfirmEnquiry', access: 'public', layout: 'main', title: 'Confirm your question' },
  // people: the shopper's data (consents, export, erasure) and the e-mailed link that erases the account
  { path: '/account/data', module: './YourData', access: 'signed-in', layout: 'dashboard', title: 'Your data' },
  { path: '/account/erase', module: './EraseAccount', access: 'signed-in', layout: 'main', title: 'Erase your account' },
  // offers: a booked viewing, its reschedule and cancel
  { path: '/viewings/:viewingID', module: './Viewing', access: 'signed-in', layout: 'dashboard', title: 'Your viewing' },
  { path: '/confirm-viewing', module: './ConfirmViewing', access: 'public', layout: 'main', title: 'Confirm your booking' },
  // people: address book
  { path: '/account/addresses', module: './Addresses', access: 'signed-in', layout: 'dashboard', title: 'Addresses' },
  // find: favourite boats, saved searches, and the alert e-mails' unsubscribe link (no sign-in)
  { path: '/account/favourites', module: './Favourites', access: 'signed-in', layout: 'dashboard', title: 'Favourites' },
  { path: '/account/saved-searches', module: './SavedSearches', access: 'signed-in', layout: 'dashboard', title: 'Saved searches' },
  { path: '/alerts/unsubscribe', module: './Unsubscribe', access: 'public', layout: 'main', title: 'Boat alerts' },
] as const satisfies RouteData;
