import sanitizeHtml from 'sanitize-html';

// The product page injects this HTML as is, so what is stored must already be harmless: an
// allowlist of formatting tags, links only to web and mail addresses, and no attribute that
// could carry script (event handlers, style, src).
const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: ['h2', 'h3', 'h4', 'h5', 'h6', 'p', 'br', 'strong', 'em', 'u', 's', 'ul', 'ol', 'li', 'blockquote', 'a'],
  allowedAttributes: { a: ['href', 'rel'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesAppliedToAttributes: ['href'],
  allowProtocolRelative: false,
  // Text of dropped tags stays, except inside these, whose content is code or chrome, not prose.
  nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'iframe', 'object', 'embed', 'svg', 'math', 'template'],
  transformTags: {
    // The product page's own heading is the h1; a description heading sits below it.
    h1: 'h2',
    b: 'strong',
    i: 'em',
    strike: 's',
    del: 's',
    // A linked page must not get a handle on the shop's window (window.opener).
    a: sanitizeHtml.simpleTransform('a', { rel: 'noopener noreferrer' }),
  },
  // An <a> whose href was refused (javascript:, data:, …) would be a dead link; keep its text only.
  exclusiveFilter: (frame) => (frame.tag === 'a' && !frame.attribs.href ? 'excludeTag' : false),
};

/** Product descriptions are sanitised on write, so everything stored is safe to render. */
export function sanitizeDescription(html: string): string {
  return sanitizeHtml(html, OPTIONS).trim();
}
