import { fileURLToPath } from 'node:url';
import { ModuleFederationPlugin } from '@module-federation/enhanced/rspack';
import { rspack } from '@rspack/core';
import { frontEndConfig } from '@boatshop/web-build';
import packageJson from './package.json' with { type: 'json' };
import { routes } from './src/routes';

export default frontEndConfig({
  bundler: { rspack, ModuleFederationPlugin },
  app: 'mf-catalog',
  dir: fileURLToPath(new URL('.', import.meta.url)),
  title: 'Boat shop catalog',
  exposes: {
    './Home': './src/pages/home.tsx',
    './Search': './src/pages/search.tsx',
    './Product': './src/pages/product.tsx',
    './Compare': './src/pages/compare.tsx',
  },
  // Its pages as data (src/routes.ts): checked against exposes and written to dist/routes.json.
  routes,
  // Its pages for the shell's server to render (src/server.tsx → dist/server/pages.cjs).
  serverPages: './src/server.tsx',
  dependencies: packageJson.dependencies,
});
