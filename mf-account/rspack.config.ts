import { fileURLToPath } from 'node:url';
import { ModuleFederationPlugin } from '@module-federation/enhanced/rspack';
import { rspack } from '@rspack/core';
import { frontEndConfig } from '@boatshop/web-build';
import packageJson from './package.json' with { type: 'json' };
import { routes } from './src/routes';

export default frontEndConfig({
  bundler: { rspack, ModuleFederationPlugin },
  app: 'mf-account',
  dir: fileURLToPath(new URL('.', import.meta.url)),
  title: 'Boat shop account',
  exposes: {
    './Login': './src/pages/login.tsx',
    './Registration': './src/pages/registration.tsx',
    './PasswordReset': './src/pages/password-reset.tsx',
    './PasswordResetConfirm': './src/pages/password-reset-confirm.tsx',
    './Dashboard': './src/pages/dashboard.tsx',
    './Order': './src/pages/order.tsx',
    './VerifyEmail': './src/pages/verify-email.tsx',
    './Messages': './src/pages/messages.tsx',
    './Conversation': './src/pages/conversation.tsx',
    './ConfirmEnquiry': './src/pages/confirm-enquiry.tsx',
    './StaffInvitation': './src/pages/staff-invitation.tsx',
    './YourData': './src/pages/your-data.tsx',
    './EraseAccount': './src/pages/erase-account.tsx',
    './Viewing': './src/pages/viewing.tsx',
    './ConfirmViewing': './src/pages/confirm-viewing.tsx',
    './Addresses': './src/pages/addresses.tsx',
    './Favourites': './src/pages/favourites.tsx',
    './SavedSearches': './src/pages/saved-searches.tsx',
    './Unsubscribe': './src/pages/unsubscribe.tsx',
  },
  // Its pages as data (src/routes.ts): checked against exposes and written to dist/routes.json.
  routes,
  dependencies: packageJson.dependencies,
});
