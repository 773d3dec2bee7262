// A remote's standalone page (its own index.html, served by the remote's server alone) runs this
// first: it provides the Module Federation runtime code the remote's build leaves out, which on
// the shop's pages the shell provides (shared-runtime.ts). Built without Module Federation into
// mf-runtime.js (rspack-config.ts). On the shop's pages it runs only under a shell released
// before the shell provided the bundler runtime's functions: the remote loads it then
// (remote-bundler-runtime.cjs), and it sets only the globals that page lacks.
const global = globalThis;
const MF_GLOBALS = require('@boatshop/remotes/mf-globals.json');
global[MF_GLOBALS.sdk] ??= require('@module-federation/sdk');
global[MF_GLOBALS.errorCodes] ??= require('@module-federation/error-codes');
global[MF_GLOBALS.runtimeCore] ??= require('@module-federation/runtime-core');
global[MF_GLOBALS.bundlerRuntime] ??= require('@module-federation/webpack-bundler-runtime');
