import { createHash } from 'node:crypto';
import { escapeHtml } from '../../lib/html.js';

/** The message the Login page waits for (packages/state `signInWithGoogle`). */
export interface OidcPopupMessage {
  type: 'boatshop:oidc';
  ok: boolean;
  message?: string;
}

/**
 * The popup's last page: hands the result to the shop window that opened it, then closes. The
 * target origin is the shop's, so no other page that might have opened the popup learns anything.
 * The only script is allowed by its hash, nothing else may run or load.
 */
export function oidcPopupPage(shopOrigin: string, result: OidcPopupMessage): { html: string; contentSecurityPolicy: string } {
  // JSON inside <script>: escape '<' so no value can close the element.
  const json = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');
  const script = `if (window.opener) window.opener.postMessage(${json(result)}, ${json(shopOrigin)}); window.close();`;
  const scriptHash = createHash('sha256').update(script).digest('base64');
  const text = result.ok
    ? 'You are signed in. You can close this window.'
    : `Sign-in did not complete: ${result.message ?? 'please try again.'} You can close this window.`;
  const html = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Boat shop sign-in</title></head>
<body>
<p>${escapeHtml(text)}</p>
<script>${script}</script>
</body>
</html>
`;
  return { html, contentSecurityPolicy: `default-src 'none'; script-src 'sha256-${scriptHash}'` };
}
