// Tiny server-side HTML helpers shared by the account chooser and the dev mailbox pages.

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char] ?? char);
}

const BASE_CSS = `
  :root { color-scheme: light; font-family: system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif; }
  body { margin: 0; background: #f4f6f8; color: #1a1d21; line-height: 1.5; }
  main { max-width: 960px; margin: 0 auto; padding: 2rem 1rem; }
  h1 { font-size: 1.5rem; margin: 0 0 1rem; }
  a { color: #0b57d0; }
  :focus-visible { outline: 3px solid #0b57d0; outline-offset: 2px; }
  .note { color: #4a5058; font-size: 0.875rem; }
`;

/** A complete, self-contained HTML document; `body` must already be escaped. */
export function htmlPage(title: string, body: string, extraCss = ''): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${BASE_CSS}${extraCss}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}
