// The part of nanostores the shop's apps use, shared under the name `nanostores` (see
// SHARED_SINGLETONS in rspack-config.ts), for the reason react-router-subset.js gives: a shared
// module cannot be tree-shaken, so every app's build resolves `nanostores` to this one list
// instead of the whole library. It names what the apps' code imports and what the libraries
// built into them import (`listenKeys` for @nanostores/react, `map` and `onMount` for
// @nanostores/persistent in @boatshop/state). nanostores-subset.test.ts fails when an app or
// one of those libraries imports a name missing here. To use more of nanostores, add the name
// here and release the shell first.
export { atom, computed, listenKeys, map, onMount } from '@boatshop/nanostores-implementation';
