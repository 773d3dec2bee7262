import { escapeHtml, htmlPage } from './html.js';
import type { StoredMessage } from './mail-store.js';

const MAILBOX_CSS = `
  table { width: 100%; border-collapse: collapse; background: #fff; }
  th, td { text-align: left; padding: 0.5rem 0.75rem; border-bottom: 1px solid #e3e6ea; vertical-align: top; }
  th { background: #e9edf1; }
  caption { text-align: left; padding-bottom: 0.5rem; }
  dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.25rem 1rem; background: #fff; padding: 1rem; border: 1px solid #d0d5db; }
  dt { font-weight: 600; }
  dd { margin: 0; overflow-wrap: anywhere; }
  h2 { font-size: 1.125rem; margin: 1.5rem 0 0.5rem; }
  iframe { width: 100%; height: 32rem; border: 1px solid #d0d5db; background: #fff; }
  pre { white-space: pre-wrap; overflow-wrap: anywhere; background: #fff; border: 1px solid #d0d5db; padding: 1rem; }
`;

function formatDate(iso: string): string {
  return new Date(iso).toUTCString();
}

export function mailboxListPage(messages: readonly StoredMessage[]): string {
  const rows = messages
    .map(
      (message) => `<tr>
  <td>${escapeHtml(message.to.join(', '))}</td>
  <td><a href="/messages/${encodeURIComponent(message.id)}">${escapeHtml(message.subject || '(no subject)')}</a></td>
  <td><time datetime="${escapeHtml(message.date)}">${escapeHtml(formatDate(message.date))}</time></td>
</tr>`,
    )
    .join('\n');

  const content = messages.length
    ? `<table>
<caption class="note">Newest first; kept in memory until the dev services stop.</caption>
<thead><tr><th scope="col">To</th><th scope="col">Subject</th><th scope="col">Date</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>`
    : '<p>No messages yet.</p>';

  return htmlPage('Dev mailbox', `<h1>Dev mailbox</h1>\n${content}`, MAILBOX_CSS);
}

/** Escapes plain text and turns its web addresses into links, as mail clients do. */
function linkify(text: string): string {
  return text
    .split(/(https?:\/\/[^\s<>"']+)/g)
    .map((part, index) => (index % 2 === 1 ? `<a href="${escapeHtml(part)}">${escapeHtml(part)}</a>` : escapeHtml(part)))
    .join('');
}

/**
 * The HTML body runs in a sandbox without scripts or same-origin rights; `<base target="_top">`
 * makes its links open in this tab, which the sandbox allows only on a click.
 */
function htmlBodyFrame(html: string): string {
  const document = `<base target="_top">${html}`;
  return `<iframe title="HTML body" sandbox="allow-top-navigation-by-user-activation allow-popups allow-popups-to-escape-sandbox" srcdoc="${escapeHtml(document)}"></iframe>`;
}

/** The message's files, each a download, as a mail client lists them. */
function attachmentList(message: StoredMessage): string {
  if (message.attachments.length === 0) return '';
  const items = message.attachments
    .map(
      (attachment, index) =>
        `<li><a href="/messages/${encodeURIComponent(message.id)}/attachments/${index}" download="${escapeHtml(attachment.filename)}">${escapeHtml(attachment.filename)}</a> (${escapeHtml(attachment.contentType)}, ${attachment.size.toLocaleString('de-DE')} bytes)</li>`,
    )
    .join('');
  return `<h2>Attachments</h2>\n<ul>${items}</ul>`;
}

export function mailboxMessagePage(message: StoredMessage): string {
  return htmlPage(
    message.subject || 'Message',
    `<p><a href="/">Back to the mailbox</a></p>
<h1>${escapeHtml(message.subject || '(no subject)')}</h1>
<dl>
  <dt>From</dt><dd>${escapeHtml(message.from)}</dd>
  <dt>To</dt><dd>${escapeHtml(message.to.join(', '))}</dd>
  <dt>Date</dt><dd><time datetime="${escapeHtml(message.date)}">${escapeHtml(formatDate(message.date))}</time></dd>
</dl>
${attachmentList(message)}
<h2>HTML</h2>
${message.html ? htmlBodyFrame(message.html) : '<p>This message has no HTML part.</p>'}
<h2>Text</h2>
${message.text ? `<pre>${linkify(message.text)}</pre>` : '<p>This message has no text part.</p>'}`,
    MAILBOX_CSS,
  );
}

export function notFoundPage(): string {
  return htmlPage('Message not found', '<p><a href="/">Back to the mailbox</a></p><h1>Message not found</h1>');
}
