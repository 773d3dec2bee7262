import { describe, expect, it } from 'vitest';
import { sanitizeDescription } from './sanitize-description.js';

describe('sanitizeDescription', () => {
  it('keeps what the admin editor produces', () => {
    const html =
      '<h2>Specs</h2><p>Fast <strong>and</strong> <em>dry</em>, <u>teak</u> deck, <s>old</s> new sails<br />two lines</p>' +
      '<ul><li><p>Radar</p></li></ul><ol><li>Autopilot</li></ol><blockquote><p>Sails herself</p></blockquote>';
    expect(sanitizeDescription(html)).toBe(html);
  });

  it.each([
    ['<a href="JaVaScRiPt:alert(1)">x</a>', 'x'],
    ['<a href="&#106;avascript:alert(1)">x</a>', 'x'],
    ['<a href=" javascript:alert(1)">x</a>', 'x'],
    ['<a href="data:text/html,<script>alert(1)</script>">x</a>', 'x'],
    ['<a href="//evil.example.test">x</a>', 'x'],
    ['<svg onload="alert(1)"><script>alert(1)</script></svg>', ''],
    ['<p style="background:url(javascript:alert(1))">x</p>', '<p>x</p>'],
    ['<object data="evil.swf"></object><embed src="evil.swf">', ''],
    ['<form action="https://evil.example.test"><input name="q"><button>Go</button></form>', 'Go'],
  ])('makes %s harmless', (hostile, safe) => {
    expect(sanitizeDescription(hostile)).toBe(safe);
  });

  it('keeps web and mail links, and cuts them off from the shop’s window', () => {
    expect(sanitizeDescription('<a href="mailto:sales@example.test" target="_blank">Mail</a> <a href="http://example.test">Web</a>')).toBe(
      '<a href="mailto:sales@example.test" rel="noopener noreferrer">Mail</a> <a href="http://example.test" rel="noopener noreferrer">Web</a>',
    );
  });
});
