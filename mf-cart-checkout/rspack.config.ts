import { fileURLToPath } from 'node:url';
import { ModuleFederationPlugin } from '@module-federation/enhanced/rspack';
import { rspack } from '@rspack/core';
import { frontEndConfig } from '@boatshop/web-build';
import packageJson from './package.json' with { type: 'json' };
import { routes } from './src/routes';

export default frontEndConfig({
  bundler: { rspack, ModuleFederationPlugin },
  app: 'mf-cart-checkout',
  dir: fileURLToPath(new URL('.', import.meta.url)),
  title: 'Boat shop cart and checkout',
  exposes: {
    './Cart': './src/pages/cart.tsx',
    './Payment': './src/pages/payment.tsx',
    './OfferPayment': './src/pages/offer-payment.tsx',
  },
  // Its pages as data (src/routes.ts): checked against exposes and written to dist/routes.json.
  routes,
  dependencies: packageJson.dependencies,
});
