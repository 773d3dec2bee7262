import { fileURLToPath } from 'node:url';
import { ModuleFederationPlugin } from '@module-federation/enhanced/rspack';
import { rspack } from '@rspack/core';
import { frontEndConfig } from '@boatshop/web-build';
import packageJson from './package.json' with { type: 'json' };
import { routes } from './src/routes';

export default frontEndConfig({
  bundler: { rspack, ModuleFederationPlugin },
  app: 'mf-admin',
  dir: fileURLToPath(new URL('.', import.meta.url)),
  title: 'Boat shop admin',
  exposes: {
    './Admin': './src/pages/admin.tsx',
    './AdminOrders': './src/pages/admin-orders.tsx',
    './AdminOrder': './src/pages/admin-order.tsx',
    './AdminLeads': './src/pages/admin-leads.tsx',
    './AdminLead': './src/pages/admin-lead.tsx',
    './AdminViewings': './src/pages/admin-viewings.tsx',
    './AdminStaff': './src/pages/admin-staff.tsx',
    './AdminAudit': './src/pages/admin-audit.tsx',
    './AdminInvoices': './src/pages/admin-invoices.tsx',
  },
  // Its pages as data (src/routes.ts): checked against exposes and written to dist/routes.json.
  routes,
  dependencies: packageJson.dependencies,
});
