// Proves each boundary policy of eslint.config.js: a small file placed (in memory) inside one
// area imports from another; ESLint must report the boundary, and must stay quiet for the
// imports the same area is allowed. Run by the `lint` stage of `npm test` (vitest, root config
// test/vitest.config.ts).
import { ESLint } from 'eslint';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const eslint = new ESLint({ cwd: ROOT });

/** The boundaries errors ESLint reports for `code` as if it were the file at `filePath`. */
async function boundaryErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(ROOT, filePath) });
  const messages = result?.messages ?? [];
  const broken = messages.filter((message) => message.fatal);
  if (broken.length) throw new Error(`ESLint could not parse ${filePath}: ${broken[0]?.message}`);
  return messages.filter((message) => message.ruleId === 'boundaries/dependencies').map((message) => message.message);
}

/** The Node.js built-in modules ESLint reports as imported in browser code. */
async function restrictedImports(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(ROOT, filePath) });
  return (result?.messages ?? []).filter((message) => message.ruleId === 'no-restricted-imports').map((message) => message.message);
}

describe('boundaries between the apps', () => {
  it('a remote imports no other remote, by path or by package name', async () => {
    const errors = await boundaryErrors(
      'mf-catalog/src/fixture.ts',
      [
        "import { Account } from '../../mf-account/src/App.js';",
        "import '@boatshop/mf-admin/src/bootstrap';",
        'export const used = Account;',
      ].join('\n'),
    );
    expect(errors).toHaveLength(2);
    expect(errors[0]).toMatch(/A remote imports neither another remote nor the shell/);
  });

  it("a remote imports none of the shell's source", async () => {
    const errors = await boundaryErrors('mf-cart-checkout/src/fixture.tsx', "import '../../shell/src/layouts/layouts.js';\n");
    expect(errors).toEqual([expect.stringMatching(/A remote imports neither another remote nor the shell/)]);
  });

  it("the shell imports no remote's source", async () => {
    const errors = await boundaryErrors('shell/src/fixture.ts', "import '../../mf-catalog/src/App.js';\n");
    expect(errors).toEqual([expect.stringMatching(/The shell imports no remote source/)]);
  });

  it('the API imports no front-end code: shell, remotes or the shared state package', async () => {
    const errors = await boundaryErrors(
      'api/src/fixture.ts',
      [
        "import type { CartItem } from '@boatshop/state';",
        "import '../../packages/state/src/index.js';",
        "import '../../shell/src/App.js';",
        "import '../../mf-admin/src/App.js';",
        'export type Used = CartItem;',
      ].join('\n'),
    );
    expect(errors).toHaveLength(4);
    for (const error of errors) expect(error).toMatch(/The API imports no front-end code/);
  });

  it("front ends import none of the API's source, not even its types", async () => {
    for (const [filePath, up] of [
      ['shell/src/fixture.ts', '../..'],
      ['mf-account/src/fixture.ts', '../..'],
      ['packages/state/src/fixture.ts', '../../..'],
    ] as const) {
      const errors = await boundaryErrors(filePath, `import type { Config } from '${up}/api/src/config.js';\nexport type Used = Config;\n`);
      expect(errors, filePath).toEqual([expect.stringMatching(/Front ends import no API source/)]);
    }
  });

  it('the shared state package imports no app', async () => {
    const errors = await boundaryErrors('packages/state/src/fixture.ts', "import '../../../mf-catalog/src/App.js';\n");
    expect(errors).toEqual([expect.stringMatching(/The shared core imports no app/)]);
  });

  it('the contract imports nothing of ours', async () => {
    const errors = await boundaryErrors(
      'packages/contract/src/fixture.ts',
      [
        "import { $cart } from '@boatshop/state';",
        "import '../../../api/src/app.js';",
        "import '../../../mf-catalog/src/App.js';",
        "import { Type } from '@sinclair/typebox';",
        'export const used = [$cart, Type];',
      ].join('\n'),
    );
    expect(errors).toHaveLength(3);
    for (const error of errors) expect(error).toMatch(/The contract imports nothing of ours/);
  });

  it("a front end takes only types from the contract's root entry, never a schema value", async () => {
    for (const [filePath, up] of [
      ['mf-catalog/src/fixture.ts', '../..'],
      ['shell/src/fixture.ts', '../..'],
      ['packages/state/src/fixture.ts', '../../..'],
    ] as const) {
      const errors = await boundaryErrors(
        filePath,
        [
          "import { ProductSchema } from '@boatshop/contract';",
          `import { OrderSchema } from '${up}/packages/contract/src/index.js';`,
          'export const used = [ProductSchema, OrderSchema];',
        ].join('\n'),
      );
      expect(errors, filePath).toEqual([
        expect.stringMatching(/Front ends take only types from '@boatshop\/contract'/),
        expect.stringMatching(/Front ends take only types from '@boatshop\/contract'/),
      ]);
    }
  });

  it("a front end may import the contract's types, its constants, its client, and a schema from its own entry point", async () => {
    const code = [
      "import type { Product } from '@boatshop/contract';",
      "import { CATEGORIES } from '@boatshop/contract/constants';",
      "import { createApiClient } from '@boatshop/contract/client';",
      "import { ProductSchema } from '@boatshop/contract/schemas/products';",
      'export const used = [CATEGORIES, createApiClient, ProductSchema];',
      'export type Used = Product;',
    ].join('\n');
    expect(await boundaryErrors('mf-cart-checkout/src/fixture.ts', code)).toEqual([]);
    expect(await boundaryErrors('shell/src/fixture.ts', code)).toEqual([]);
  });

  it('the API may import anything of the contract', async () => {
    const code = "import { ProductSchema, ROUTES } from '@boatshop/contract';\nexport const used = [ProductSchema, ROUTES];\n";
    expect(await boundaryErrors('api/src/fixture.ts', code)).toEqual([]);
  });

  it('the development services are for tests and scripts only', async () => {
    const code = "import { startSmtpServer } from '@boatshop/dev-services';\nexport const used = startSmtpServer;\n";
    expect(await boundaryErrors('api/src/fixture.ts', code)).toEqual([
      expect.stringMatching(/The development services .* are for tests and scripts only/),
    ]);
    expect(await boundaryErrors('packages/web-server/src/fixture.ts', code)).toHaveLength(1);
    for (const allowed of ['api/test/fixture.test.ts', 'api/scripts/fixture.ts', 'scripts/fixture.mjs', 'e2e/support/fixture.ts']) {
      expect(await boundaryErrors(allowed, code), allowed).toEqual([]);
    }
  });

  it('browser code imports no Node.js package: the server, the build configuration, the release registry', async () => {
    const code = [
      "import { createWebServer } from '@boatshop/web-server';",
      "import { frontEndConfig } from '@boatshop/web-build';",
      "import { promote } from '@boatshop/release-registry';",
      'export const used = [createWebServer, frontEndConfig, promote];',
    ].join('\n');
    for (const filePath of ['shell/src/fixture.ts', 'mf-catalog/src/fixture.tsx', 'packages/state/src/fixture.ts']) {
      const errors = await boundaryErrors(filePath, code);
      expect(errors, filePath).toHaveLength(3);
      for (const error of errors) expect(error, filePath).toMatch(/Browser code imports no Node.js package/);
    }
    // by path as well as by package name
    expect(await boundaryErrors('shell/src/fixture.ts', "import '../../packages/web-server/src/server.js';\n")).toEqual([
      expect.stringMatching(/Browser code imports no Node.js package/),
    ]);
  });

  it("an app's build configuration, server start script and tests run in Node.js and may import the Node.js packages", async () => {
    const code =
      "import { frontEndConfig } from '@boatshop/web-build';\nimport { serveFrontEnd } from '@boatshop/web-server';\nexport const used = [frontEndConfig, serveFrontEnd];\n";
    for (const filePath of ['shell/rspack.config.ts', 'mf-catalog/serve.ts', 'shell/src/fixture.test.tsx']) {
      expect(await boundaryErrors(filePath, code), filePath).toEqual([]);
    }
  });

  it('the Node.js packages import no front-end code, except in their tests', async () => {
    const code =
      "import { routes } from '../../../mf-catalog/src/routes.js';\nimport { $cart } from '@boatshop/state';\nexport const used = [routes, $cart];\n";
    for (const filePath of [
      'packages/web-server/src/fixture.ts',
      'packages/web-build/src/fixture.ts',
      'packages/release-registry/src/fixture.ts',
    ]) {
      const errors = await boundaryErrors(filePath, code);
      expect(errors, filePath).toHaveLength(2);
      for (const error of errors) expect(error, filePath).toMatch(/Node.js packages import no front-end code/);
    }
    expect(await boundaryErrors('packages/web-server/src/test/fixture.ts', code)).toEqual([]);
  });

  it('the browser-safe shared package imports nothing of ours but the contract', async () => {
    const errors = await boundaryErrors(
      'packages/web-shared/src/fixture.ts',
      [
        "import { $cart } from '@boatshop/state';",
        "import { createWebServer } from '@boatshop/web-server';",
        "import type { Product } from '@boatshop/contract';",
        'export const used = [$cart, createWebServer];',
        'export type Used = Product;',
      ].join('\n'),
    );
    expect(errors).toHaveLength(2);
    for (const error of errors) expect(error).toMatch(/The browser-safe shared package imports nothing of ours but the contract/);
  });

  it('browser code and the shared package use no Node.js built-in module', async () => {
    const code = "import { readFile } from 'node:fs/promises';\nimport { join } from 'path';\nexport const used = [readFile, join];\n";
    for (const filePath of ['shell/src/fixture.ts', 'mf-catalog/src/fixture.ts', 'packages/web-shared/src/fixture.ts']) {
      expect(await restrictedImports(filePath, code), filePath).toHaveLength(2);
    }
    for (const filePath of ['shell/src/fixture.test.ts', 'packages/web-server/src/fixture.ts', 'shell/rspack.config.ts']) {
      expect(await restrictedImports(filePath, code), filePath).toEqual([]);
    }
  });

  it('allows what each area is meant to import', async () => {
    expect(
      await boundaryErrors(
        'mf-catalog/src/fixture.ts',
        "import { $cart } from '@boatshop/state';\nimport './App.js';\nexport const used = $cart;\n",
      ),
    ).toEqual([]);
    expect(
      await boundaryErrors('shell/src/fixture.ts', "import { $session } from '@boatshop/state';\nexport const used = $session;\n"),
    ).toEqual([]);
    expect(
      await boundaryErrors(
        'mf-admin/serve.ts',
        "import { createWebServer } from '@boatshop/web-server';\nexport const used = createWebServer;\n",
      ),
    ).toEqual([]);
  });
});
