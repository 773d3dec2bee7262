import { describe, expect, it } from 'vitest';
import { startupFiles, startupHintTags } from './startup-hints';

const entry = 'builtin:swc-loader!/app/shell/src/index.ts';

describe('startupFiles', () => {
  const groups = [
    { origins: [entry], files: ['src_bootstrap_tsx.1.css', 'src_bootstrap_tsx.1.js'] },
    { origins: ['provide shared module (default) react@19.3.1 = /app/node_modules/react/index.js'], files: ['react.2.js'] },
    { origins: ['provide shared module (default) react-dom@19.3.1 = /x'], files: ['', 'react-dom-0.3.js'] },
    // the consume fallback: a second copy, only loaded when nobody provides react-dom
    { origins: ['consume shared module (default) react-dom@^19.2.0 (strict) (fallback: /x)'], files: ['react-dom-1.4.js'] },
    // a page the app loads lazily later
    { origins: ['builtin:swc-loader!/app/shell/src/routes.tsx'], files: ['src_pages_admin.5.js'] },
    { origins: ['provide shared module (default) react@19.3.1 = /app/node_modules/react/index.js'], files: ['react.2.js'] },
  ];

  it('lists the bootstrap chunks and the provided shared modules once, not fallbacks or lazy pages', () => {
    expect(startupFiles(groups, (id) => id === entry)).toEqual({
      js: ['src_bootstrap_tsx.1.js', 'react.2.js', 'react-dom-0.3.js'],
      css: ['src_bootstrap_tsx.1.css'],
    });
  });

  it('writes classic-script and style preloads under the public path, escaped', () => {
    expect(startupHintTags({ js: ['a.js', 'b"&.js'], css: ['c.css'] }, '/')).toBe(
      '<link rel="preload" as="style" href="/c.css"><link rel="preload" as="script" href="/a.js"><link rel="preload" as="script" href="/b&quot;&amp;.js">',
    );
  });
});
