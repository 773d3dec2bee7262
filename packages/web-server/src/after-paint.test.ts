import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AFTER_PAINT_PATH, AFTER_PAINT_SCRIPT, scriptsAfterPaint } from './after-paint';

const page =
  '<!doctype html><html><head><meta charset="utf-8">' +
  '<link rel="preload" as="script" href="/main.1234abcd.js"><link rel="preload" as="script" href="/react-dom.5678.js">' +
  '<title>Boat</title><link rel="preload" as="image" fetchpriority="high" href="/api/images/boat.svg">' +
  '<link rel="preload" as="script" href="http://localhost:3001/remoteEntry.js?a=1&amp;b=2">' +
  '<link rel="preload" as="style" href="http://localhost:3001/page.css">' +
  '<script defer src="/main.1234abcd.js"></script><link href="/main.css" rel="stylesheet"></head>' +
  '<body><div id="root"><p>painted</p></div></body></html>';

describe('scripts after paint', () => {
  it('takes every script out of the head and hands them, in order, to the after-paint script', () => {
    const html = scriptsAfterPaint(page);
    const head = html.slice(0, html.indexOf('</head>'));
    expect(head).not.toMatch(/as="script"|<script defer/);
    const loader = /<script async src="([^"]+)" data-run="([^"]+)" data-preload="([^"]+)"><\/script>/.exec(head);
    expect(loader?.[1]).toBe(AFTER_PAINT_PATH);
    const attribute = (value: string) => JSON.parse(value.replace(/&#34;/g, '"').replace(/&#38;/g, '&')) as string[];
    expect(attribute(loader![2]!)).toEqual(['/main.1234abcd.js']);
    expect(attribute(loader![3]!)).toEqual(['/react-dom.5678.js', 'http://localhost:3001/remoteEntry.js?a=1&b=2']);
    // What paints stays: the picture first, the stylesheets, the markup.
    expect(head).toContain('<link rel="preload" as="image" fetchpriority="high" href="/api/images/boat.svg">');
    expect(head).toContain('<link href="/main.css" rel="stylesheet">');
    expect(html).toContain('<div id="root"><p>painted</p></div>');
  });

  it('leaves a page without a deferred script as it is', () => {
    const withoutScript = page.replace('<script defer src="/main.1234abcd.js"></script>', '');
    expect(scriptsAfterPaint(withoutScript)).toBe(withoutScript);
  });

  it('is named by its content, so a changed script is a new address', () => {
    expect(AFTER_PAINT_PATH).toMatch(/^\/after-paint\.[0-9a-f]{8}\.js$/);
    expect(AFTER_PAINT_PATH.slice(13, 21)).toBe(createHash('sha256').update(AFTER_PAINT_SCRIPT).digest('hex').slice(0, 8));
  });
});
