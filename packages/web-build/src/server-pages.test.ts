import { join } from 'node:path';
import { ModuleFederationPlugin } from '@module-federation/enhanced/rspack';
import { rspack, type Configuration } from '@rspack/core';
import { SERVER_SHARED_MODULES } from '@boatshop/web-shared/server-pages';
import { describe, expect, it } from 'vitest';
import { frontEndConfig } from './rspack-config';
import { ROOT } from './test/subset-imports';

const catalog = (serverPages?: string) =>
  frontEndConfig({
    bundler: { rspack, ModuleFederationPlugin },
    app: 'mf-catalog',
    dir: join(ROOT, 'mf-catalog'),
    title: 'Boat shop catalog',
    exposes: { './Product': './src/pages/product.tsx' },
    dependencies: { react: '^19.2.0' },
    ...(serverPages ? { serverPages } : {}),
  });

const list = (config: Configuration | Configuration[]) => (Array.isArray(config) ? config : [config]);

describe("a remote's server build", () => {
  it('is one CommonJS file for Node.js in dist/server, written after the browser build, the shared singletons left to the host', () => {
    const server = list(catalog('./src/server.tsx')).find((config) => config.name === 'mf-catalog-server-pages');
    expect(server).toBeDefined();
    expect(server!.dependencies).toEqual(['mf-catalog']);
    expect(server!.target).toEqual(['node20']);
    expect(server!.entry).toEqual({ pages: './src/server.tsx' });
    expect(server!.output).toMatchObject({
      path: join(ROOT, 'mf-catalog', 'dist', 'server'),
      filename: 'pages.cjs',
      library: { type: 'commonjs2' },
      clean: false,
    });
    expect(server!.externals).toEqual(Object.fromEntries(SERVER_SHARED_MODULES.map((id) => [id, `commonjs ${id}`])));
    expect(server!.plugins?.some((plugin) => plugin instanceof ModuleFederationPlugin)).toBe(false);
  });

  it('is not built for a remote without a server entry', () => {
    expect(list(catalog()).map((config) => config.name ?? 'mf-catalog')).not.toContain('mf-catalog-server-pages');
  });
});
