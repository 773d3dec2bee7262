import { fileURLToPath } from 'node:url';
import { ModuleFederationPlugin } from '@module-federation/enhanced/rspack';
import { rspack } from '@rspack/core';
import { frontEndConfig } from '@boatshop/web-server/rspack';
import packageJson from './package.json' with { type: 'json' };

export default frontEndConfig({
  bundler: { rspack, ModuleFederationPlugin },
  app: 'mf-catalog',
  dir: fileURLToPath(new URL('.', import.meta.url)),
  title: 'Boat shop catalog',
  mfName: 'mf_catalog',
  exposes: {
    './Home': './src/pages/home.tsx',
    './Search': './src/pages/search.tsx',
    './Product': './src/pages/product.tsx',
  },
  dependencies: packageJson.dependencies,
});
