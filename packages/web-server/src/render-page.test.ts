import { describe, expect, it } from 'vitest';
import { withHydratableRender, withServerRendered } from './render-page';

const TEMPLATE = '<!doctype html><html><head><title>Boat shop</title></head><body><div id="root"></div></body></html>';

describe('where the server’s render goes in the page', () => {
  it('a render for hydration goes into #root, its preloads and the page’s stylesheets into the head', () => {
    const page = withHydratableRender(
      TEMPLATE,
      {
        html: '<link rel="preload" as="image" href="/p.jpg" fetchPriority="high"/><div class="shell-page">x</div>',
        hydratable: true,
        data: null,
      },
      ['https://catalog.example/page.css?a=1&b=2'],
    );
    expect(page).toBe(
      '<!doctype html><html><head><title>Boat shop</title><link rel="stylesheet" href="https://catalog.example/page.css?a=1&#38;b=2">' +
        '<link rel="preload" as="image" href="/p.jpg" fetchPriority="high"/></head>' +
        '<body><div id="root"><div class="shell-page">x</div></div></body></html>',
    );
  });

  it('a render that is not for hydration, or a template without an empty #root, is not put there', () => {
    expect(withHydratableRender(TEMPLATE, { html: '<h1>x</h1>', hydratable: false, data: null }, [])).toBeNull();
    expect(withHydratableRender(TEMPLATE, { skipped: 'no server build' }, [])).toBeNull();
    expect(
      withHydratableRender(TEMPLATE.replace('<div id="root"></div>', '<main></main>'), { html: 'x', hydratable: true, data: null }, []),
    ).toBeNull();
    // The page alone goes to visitors without JavaScript, after the root.
    expect(withServerRendered(TEMPLATE, { html: '<h1>x</h1>' })).toContain(
      '<div id="root"></div><noscript><div class="shell-server-rendered"><h1>x</h1></div></noscript>',
    );
  });
});
