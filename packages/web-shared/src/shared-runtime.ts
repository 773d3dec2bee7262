import { MF_GLOBALS } from '@boatshop/remotes';

/**
 * One Module Federation runtime per page (docs/ARCHITECTURE.md, "One runtime per page"): the
 * remotes' builds leave out the runtime's library code and use the copy the shell's page already
 * runs, found under these globals. `@module-federation/runtime-core` goes through MF's own
 * `experiments.externalRuntime` / `provideExternalRuntime`; its two helper packages, which are
 * stateless, through the same kind of global (provide-runtime-plugin.js in the shell).
 * The bundler runtime's functions (webpack-bundler-runtime) are provided as the global
 * `MF_GLOBALS.bundlerRuntime`; a remote makes its own per-container state around them
 * (remote-bundler-runtime.cjs) and keeps its own `@module-federation/runtime`, which remembers its
 * container's instance.
 */
export const SHARED_RUNTIME_GLOBALS: Readonly<Record<string, string>> = {
  '@module-federation/sdk': MF_GLOBALS.sdk,
  '@module-federation/error-codes': MF_GLOBALS.errorCodes,
};

/** The standalone page's provider, built without Module Federation (mf-runtime.js, not hashed). */
export const STANDALONE_RUNTIME_FILE = 'mf-runtime.js';

/**
 * Whether a remote built with MF `remoteVersion` may run on a shell whose runtime is
 * `shellVersion`: the same major and minor version (`~major.minor`), since the remote calls
 * into the shell's copy of the runtime. An unparsable version is refused.
 */
export function runtimeCompatible(shellVersion: string, remoteVersion: string): boolean {
  const parse = (v: string) => /^(\d+)\.(\d+)\.\d+/.exec(v);
  const shell = parse(shellVersion);
  const remote = parse(remoteVersion);
  return !!shell && !!remote && shell[1] === remote[1] && shell[2] === remote[2];
}
