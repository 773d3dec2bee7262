// MF runtime plugin of the shell: provides the runtime's helper packages, as the shell's own
// bundle loaded them, to the remotes' builds, which leave them out (shared-runtime.ts). Set when
// the shell's bundle starts, before any remote entry can load. `require`, not `import`: the
// runtime itself takes these packages' CommonJS files, so the shell ships one copy of each.
const global = globalThis;
const MF_GLOBALS = require('@boatshop/remotes/mf-globals.json');
global[MF_GLOBALS.sdk] ??= require('@module-federation/sdk');
global[MF_GLOBALS.errorCodes] ??= require('@module-federation/error-codes');
// The bundler runtime's functions (stateless; remote-bundler-runtime.cjs makes each remote's state).
global[MF_GLOBALS.bundlerRuntime] ??= require('@module-federation/webpack-bundler-runtime');

export default function provideRuntimePlugin() {
  return { name: 'boatshop-provide-runtime' };
}
