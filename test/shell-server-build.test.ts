import { spawnSync } from 'node:child_process';
import { dirname } from 'node:path';
import { SERVER_SHARED_MODULES } from '@boatshop/web-shared/server-pages';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs build script without type declarations
import { buildServer } from '../shell/build-server.mjs';

describe("the shell's built server (shell/build-server.mjs)", () => {
  it('loads every module the server render imports by name with plain node, no TypeScript loader', async () => {
    const bundle = (await buildServer()) as string;
    // The render imports these at run time, resolved from the bundle's folder (server-render.ts).
    const script = `for (const id of ${JSON.stringify(SERVER_SHARED_MODULES)}) await import(id);`;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: dirname(bundle), encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });
});
