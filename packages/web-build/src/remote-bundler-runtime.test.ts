import { createRequire } from 'node:module';
import { MF_GLOBALS } from '@boatshop/remotes';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { REMOTE_BUNDLER_RUNTIME } from './rspack-config';

const require = createRequire(import.meta.url);
const GLOBAL = MF_GLOBALS.bundlerRuntime;
const globals = globalThis as Record<string, unknown>;

type Fn = (options: Record<string, unknown>) => unknown;
interface Federation {
  runtime: unknown;
  instance: unknown;
  initOptions: unknown;
  bundlerRuntime: Record<string, Fn> & { S: object };
  attachShareScopeMap: unknown;
  bundlerRuntimeOptions: object;
}

/** One remote entry's copy of the module: what its container's MF glue gets. */
function loadForAContainer(): Federation {
  delete require.cache[REMOTE_BUNDLER_RUNTIME];
  return (require(REMOTE_BUNDLER_RUNTIME) as { default: Federation }).default;
}

/** A page without a DOM of its own: records the scripts added, which "load" when told. */
function fakeDocument() {
  const scripts: { src: string; onload?: () => void; onerror?: () => void }[] = [];
  globals.document = {
    createElement: () => ({}),
    head: { appendChild: (script: (typeof scripts)[number]) => scripts.push(script) },
  };
  globals.__webpack_public_path__ = 'https://cdn.example/releases/mf-catalog/1.4.0-abc/';
  return scripts;
}

afterEach(() => {
  for (const name of [GLOBAL, 'document', '__webpack_public_path__']) delete globals[name];
  delete require.cache[REMOTE_BUNDLER_RUNTIME];
});

describe("a remote's bundler runtime on the page's copy of the functions", () => {
  it("uses the page's stateless functions and gives each container its own state", () => {
    const provided = require('@module-federation/webpack-bundler-runtime') as { bundlerRuntime: Record<string, Fn> & { S: object } };
    globals[GLOBAL] = provided;

    const catalog = loadForAContainer();
    const account = loadForAContainer();

    const consumes = vi.spyOn(provided.bundlerRuntime, 'consumes').mockReturnValue(undefined);
    const options = { chunkId: 'Home', promises: [] };
    catalog.bundlerRuntime.consumes!(options);
    expect(consumes).toHaveBeenCalledWith(options);
    expect(catalog.bundlerRuntime.initContainerEntry).toBeTypeOf('function');
    // The state the package's own index keeps per copy is fresh for every container.
    expect(catalog).not.toBe(account);
    expect(catalog.bundlerRuntimeOptions).not.toBe(account.bundlerRuntimeOptions);
    expect(catalog.bundlerRuntime.S).not.toBe(account.bundlerRuntime.S);
    expect(catalog.bundlerRuntime.S).not.toBe(provided.bundlerRuntime.S);
    expect(catalog.instance).toBeUndefined();
    expect(catalog.initOptions).toBeUndefined();
  });

  it('under a shell that provides no bundler runtime, loads mf-runtime.js from beside the remote once, then runs the call', async () => {
    const scripts = fakeDocument();
    const federation = loadForAContainer();
    const remotes = vi.fn((options: { promises: Promise<unknown>[] }) => options.promises.push(Promise.resolve('chunk')));
    const initializeSharing = vi.fn(() => 'shared');

    const promises: Promise<unknown>[] = [];
    federation.bundlerRuntime.remotes!({ chunkId: 'Home', promises });
    const sharing = federation.bundlerRuntime.I!({ shareScopeName: 'default' });
    expect(promises).toHaveLength(1);
    expect(scripts.map((script) => script.src)).toEqual(['https://cdn.example/releases/mf-catalog/1.4.0-abc/mf-runtime.js']);
    expect(remotes).not.toHaveBeenCalled();

    // mf-runtime.js runs: it sets the global, then the script's load event fires.
    globals[GLOBAL] = { bundlerRuntime: { remotes, I: initializeSharing } };
    scripts[0]!.onload!();
    expect(await Promise.all(promises)).toEqual([['chunk']]);
    expect(await sharing).toBe('shared');
    expect(remotes).toHaveBeenCalledWith(expect.objectContaining({ chunkId: 'Home' }));
  });

  it('says so when mf-runtime.js cannot be loaded, and tries again on the next call', async () => {
    const scripts = fakeDocument();
    const federation = loadForAContainer();
    const first = federation.bundlerRuntime.I!({ shareScopeName: 'default' });
    scripts[0]!.onerror!();
    await expect(first).rejects.toThrow(/cannot load .*mf-runtime\.js/);
    void federation.bundlerRuntime.I!({ shareScopeName: 'default' });
    expect(scripts).toHaveLength(2);
  });

  it("starts a container without the page's functions: its own init on the remote's runtime", () => {
    const federation = loadForAContainer();
    const init = vi.fn(() => 'instance');
    const webpackRequire = { federation: { initOptions: { name: 'mf_catalog' }, runtime: { init } } };
    expect(federation.bundlerRuntime.init!({ webpackRequire })).toBe('instance');
    expect(init).toHaveBeenCalledWith({ name: 'mf_catalog' });
    expect(() => federation.bundlerRuntime.installInitialConsumes!({ initialConsumes: [] })).not.toThrow();
  });
});
