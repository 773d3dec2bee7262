import { fileURLToPath } from 'node:url';
import { ModuleFederationPlugin } from '@module-federation/enhanced/rspack';
import { rspack } from '@rspack/core';
import { frontEndConfig } from '@boatshop/web-build';
import packageJson from './package.json' with { type: 'json' };

export default frontEndConfig({
  bundler: { rspack, ModuleFederationPlugin },
  app: 'shell',
  dir: fileURLToPath(new URL('.', import.meta.url)),
  title: 'Boat shop: sailing boats and yachts',
  // Its frame for the shell's server to render around a remote's page (src/server.tsx → dist/server/pages.cjs).
  serverPages: './src/server.tsx',
  runtimePlugins: [fileURLToPath(new URL('./src/remotes/resilience-plugin.ts', import.meta.url))],
  dependencies: packageJson.dependencies,
});
