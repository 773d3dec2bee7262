// Server builds as a remote's build writes them (CommonJS, the shared singletons required from
// the rendering server), small enough to read here.
export const PRODUCT_PAGE = `
const React = require('react');
const { atom } = require('nanostores');
const { $cart } = require('@boatshop/state');
// Module state, as a page's store is: it must belong to one render.
const $name = atom('nobody');
function Page({ wait }) {
  if (wait) React.use(wait);
  return React.createElement('h1', null, $name.get() + ' / cart ' + $cart.get().length);
}
module.exports = {
  schema: 1,
  modules: ['./Product'],
  render(input) {
    $name.set(input.data.product.name);
    const delay = input.data.product.delayMs;
    const wait = delay ? new Promise((resolve) => setTimeout(resolve, delay)) : null;
    return React.createElement(Page, { wait });
  },
};`;
// The same release built for hydration: `page` gives the component the shell's frame renders.
export const HYDRATABLE_PAGE = `${PRODUCT_PAGE}
module.exports.page = function (input) {
  $name.set(input.data.product.name);
  const delay = input.data.product.delayMs;
  const wait = delay ? new Promise((resolve) => setTimeout(resolve, delay)) : null;
  return { component: function Product() { return React.createElement(Page, { wait }); } };
};`;
// The shell's server build: a frame with module state of its own (the address it renders), read
// after a wait for a "slow" address, so a frame shared by two renders would show the other's.
export const FRAME = `
const React = require('react');
const { atom } = require('nanostores');
const { $session } = require('@boatshop/state');
const $url = atom('');
function Frame({ Page, wait }) {
  if (wait) React.use(wait);
  const user = $session.get().user;
  return React.createElement('div', { className: 'frame' },
    React.createElement('header', null, 'frame of ' + $url.get() + (user ? ' for ' + user.displayName : '')),
    React.createElement(Page));
}
module.exports = {
  schema: 1,
  render(input) {
    $url.set(input.url);
    const wait = input.url.includes('slow') ? new Promise((resolve) => setTimeout(resolve, 60)) : null;
    return React.createElement(Frame, { Page: input.page.component, wait });
  },
};`;
export const THROWING_PAGE = `module.exports = { schema: 1, modules: ['./Product', './Home'], render() { throw new Error('release bug'); } };`;
export const SLOW_PAGE = `
const React = require('react');
const never = new Promise(() => {});
function Page() { React.use(never); return null; }
module.exports = { schema: 1, modules: ['./Product'], render() { return React.createElement(Page); } };`;
// A page larger than React's progressive chunk size (12.8 kB), inside a Suspense boundary as the
// shell's frame puts every remote page.
export const LARGE_PAGE = `
const React = require('react');
function Page() {
  return React.createElement('main', null, React.createElement(React.Suspense, { fallback: React.createElement('p', null, 'Loading…') },
    React.createElement('ul', null, Array.from({ length: 1500 }, (_, i) => React.createElement('li', { key: i }, 'Boat number ' + i)))));
}
module.exports = { schema: 1, modules: ['./Product'], render() { return React.createElement(Page); } };`;
export const NODE_BUILTIN_PAGE = `require('node:fs'); module.exports = { schema: 1, modules: ['./Product'], render() { return null; } };`;
