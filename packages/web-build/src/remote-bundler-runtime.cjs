// What a remote's build takes for `@module-federation/webpack-bundler-runtime` (production
// builds; rspack-config.ts swaps the package's index for this file). It mirrors the index of the
// exactly pinned version; shortcut-guards.test.ts fails when the installed package's shape
// differs (docs/adr/0001-shared-bundler-runtime.md). The package's functions
// (remotes, consumes, initializeSharing, …) take the container's `__webpack_require__` as an
// argument and keep nothing between calls, so the remote uses the copy the page already runs:
// the shell's (provide-runtime-plugin.js), or on the remote's standalone page mf-runtime.js's.
// Both set the global `bundlerRuntime` of @boatshop/remotes/mf-globals.json. What holds a container's state is made here, fresh for
// this container, as the package's index makes it: the `federation` object, its options and its
// share-scope object `S`, with the remote's own `@module-federation/runtime` (which remembers its
// container's instance) and the two small functions every container needs as it starts
// (`attachShareScopeMap`, and `initContainerEntry`, which the shell's build leaves out since the
// shell exposes nothing).
//
// A shell released before it provided these functions (version skew: an older shell with this
// remote) still runs the remote: the functions the container calls later, all of which can wait
// for a promise, first load mf-runtime.js from beside this remote entry (it sets whichever
// globals the page lacks), and `init`, which runs as the entry starts, is the package's own
// without the tree-shaking of shared modules, which the shop does not configure.
/* global __webpack_public_path__ */
const runtime = require('@module-federation/runtime');
const { attachShareScopeMap } = require('@module-federation/webpack-bundler-runtime/dist/attachShareScopeMap.cjs');
const { initContainerEntry } = require('@module-federation/webpack-bundler-runtime/dist/initContainerEntry.cjs');

const PROVIDED = require('@boatshop/remotes/mf-globals.json').bundlerRuntime;
const provided = () => globalThis[PROVIDED];

let loading = null;

/** The page's bundler runtime functions, loading mf-runtime.js from beside this remote if the page has none. */
function whenProvided() {
  if (provided()) return Promise.resolve(provided().bundlerRuntime);
  loading ??= new Promise((resolve, reject) => {
    const { document } = globalThis;
    const script = document.createElement('script');
    script.src = `${__webpack_public_path__}mf-runtime.js`;
    script.onload = () =>
      provided() ? resolve(provided().bundlerRuntime) : reject(new Error(`${script.src} did not provide the Module Federation runtime`));
    script.onerror = () => {
      loading = null;
      reject(new Error(`cannot load ${script.src}, which provides the Module Federation runtime to this remote`));
    };
    document.head.appendChild(script);
  });
  return loading;
}

/** A function that fills `options.promises` (remotes, consumes): at once, or one promise that waits for the runtime. */
function filling(name) {
  return (options) => {
    if (provided()) return provided().bundlerRuntime[name](options);
    options.promises.push(
      whenProvided().then((bundlerRuntime) => {
        const promises = [];
        bundlerRuntime[name]({ ...options, promises });
        return Promise.all(promises);
      }),
    );
  };
}

const bundlerRuntime = {
  remotes: filling('remotes'),
  consumes: filling('consumes'),
  I: (options) => (provided() ? provided().bundlerRuntime.I(options) : whenProvided().then((functions) => functions.I(options))),
  S: {},
  installInitialConsumes: (options) => {
    if (provided()) return provided().bundlerRuntime.installInitialConsumes(options);
    // Synchronous by nature: only a container that consumes shared modules as it starts needs it (the shop's remotes do not).
    if (options.initialConsumes.length > 0)
      throw new Error('The Module Federation runtime is missing: load the shell (or mf-runtime.js) first');
  },
  initContainerEntry,
  init: (options) => {
    if (provided()) return provided().bundlerRuntime.init(options);
    const { initOptions } = options.webpackRequire.federation;
    if (!initOptions) throw new Error('initOptions is required!');
    return options.webpackRequire.federation.runtime.init(initOptions);
  },
  getSharedFallbackGetter: undefined,
};

const federation = {
  runtime,
  instance: undefined,
  initOptions: undefined,
  bundlerRuntime,
  attachShareScopeMap,
  bundlerRuntimeOptions: {},
};

Object.defineProperty(exports, '__esModule', { value: true });
exports.default = federation;
exports.bundlerRuntime = bundlerRuntime;
exports.attachShareScopeMap = attachShareScopeMap;
exports.bundlerRuntimeOptions = federation.bundlerRuntimeOptions;
exports.initOptions = undefined;
exports.instance = undefined;
exports.runtime = runtime;
