import type { Config } from 'dompurify';

/**
 * The same allowlist as the server's sanitiser (api/src/features/products/sanitize-description.ts):
 * formatting tags, links to web and mail addresses (or relative ones), and no other attribute.
 * DOMPurify's default would also let through pictures, forms, style, ids, names and classes.
 */
export const DESCRIPTION_PURIFY_CONFIG: Config = {
  ALLOWED_TAGS: ['h2', 'h3', 'h4', 'h5', 'h6', 'p', 'br', 'strong', 'em', 'u', 's', 'ul', 'ol', 'li', 'blockquote', 'a'],
  ALLOWED_ATTR: ['href', 'rel'],
  ALLOW_DATA_ATTR: false,
  ALLOW_ARIA_ATTR: false,
  // http(s) and mailto, or no scheme at all (relative links and fragments).
  ALLOWED_URI_REGEXP: /^(?:(?:https?|mailto):|[^a-z]|[a-z+.-]+(?:[^a-z+.\-:]|$))/i,
};

/**
 * The server sanitises on write; the browser sanitises again with the same allowlist, so a row
 * written some other way can neither run script nor dress up as the shop. DOMPurify loads only
 * with the page that needs it.
 */
export async function sanitizeDescription(html: string): Promise<string> {
  const { default: DOMPurify } = await import('dompurify');
  return DOMPurify.sanitize(html, { ...DESCRIPTION_PURIFY_CONFIG, RETURN_TRUSTED_TYPE: false });
}

/** Starts loading DOMPurify while something else (the product's request) is under way. */
export function preloadSanitizer(): void {
  import('dompurify').catch(() => undefined);
}
