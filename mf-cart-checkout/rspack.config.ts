import { fileURLToPath } from 'node:url';
import { ModuleFederationPlugin } from '@module-federation/enhanced/rspack';
import { rspack } from '@rspack/core';
import { frontEndConfig } from '@boatshop/web-server/rspack';
import packageJson from './package.json' with { type: 'json' };

export default frontEndConfig({
  bundler: { rspack, ModuleFederationPlugin },
  app: 'mf-cart-checkout',
  dir: fileURLToPath(new URL('.', import.meta.url)),
  title: 'Boat shop cart and checkout',
  mfName: 'mf_cart_checkout',
  exposes: {
    './Cart': './src/pages/cart.tsx',
    './Payment': './src/pages/payment.tsx',
  },
  dependencies: packageJson.dependencies,
});
