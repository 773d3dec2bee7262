import { randomUUID } from 'node:crypto';
import type { Transaction } from 'kysely';
import type { Database } from '../../db/database.js';
import { escapeHtml } from '../../lib/html.js';
import type { Mail } from '../mail/mailer.js';
import { writeOutboxMessage } from '../outbox/outbox.repository.js';

// The e-mails of a conversation, both ways. Written to the outbox in the transaction of the change
// (kind `mail`: the message as it will be sent), so a rolled-back change sends nothing.

/** The outbox kind of a message written ready to send. */
export const READY_MAIL_KIND = 'mail';

/** Text paragraphs as HTML, every character escaped: what a shopper or the shop wrote stays text. */
function paragraphs(lines: string[]): string {
  return lines.map((line) => `<p>${escapeHtml(line).replaceAll('\n', '<br>')}</p>`).join('\n');
}

/** An e-mail of paragraphs and one link, every character escaped in its HTML. */
export function mail(to: string, subject: string, lines: string[], link: { href: string; label: string } | null): Mail {
  const text = [...lines, ...(link ? ['', `${link.label}: ${link.href}`] : [])].join('\n\n');
  const html = `${paragraphs(lines)}${link ? `\n<p><a href="${escapeHtml(link.href)}">${escapeHtml(link.label)}</a></p>` : ''}`;
  return { to, subject, text, html };
}

export function enquiryConfirmationMail(options: { to: string; name: string; productName: string; link: string }): Mail {
  return mail(
    options.to,
    `Confirm your question about the ${options.productName}`,
    [
      `Hello ${options.name},`,
      `Please confirm your question about the ${options.productName} by opening the link below. The shop receives it only then.`,
      'The link works once and expires in 24 hours. If you did not ask anything, ignore this e-mail.',
    ],
    { href: options.link, label: 'Confirm my question' },
  );
}

export function newEnquiryMail(options: {
  to: string;
  buyerName: string;
  email: string;
  productName: string;
  message: string;
  link: string;
}): Mail {
  return mail(
    options.to,
    `New enquiry about the ${options.productName}`,
    [`${options.buyerName} <${options.email}> asks about the ${options.productName}:`, options.message],
    { href: options.link, label: 'Open the lead' },
  );
}

export function shopperReplyMail(options: { to: string; buyerName: string; productName: string; message: string; link: string }): Mail {
  return mail(
    options.to,
    `${options.buyerName} replied about the ${options.productName}`,
    [`${options.buyerName} wrote:`, options.message],
    { href: options.link, label: 'Open the lead' },
  );
}

export function shopAnswerMail(options: {
  to: string;
  buyerName: string;
  productName: string;
  message: string;
  link: string;
  hasAccount: boolean;
}): Mail {
  return mail(
    options.to,
    `Your question about the ${options.productName}`,
    [
      `Hello ${options.buyerName},`,
      `The Boat shop answered your question about the ${options.productName}:`,
      options.message,
      options.hasAccount
        ? 'You can reply in your account, under Messages.'
        : 'To reply, sign up with this e-mail address and confirm it: the conversation is then under Messages in your account.',
    ],
    { href: options.link, label: 'Open the conversation' },
  );
}

/** Queues the mail in the caller's transaction; each call is a new message. */
export async function queueMail(trx: Transaction<Database>, message: Mail): Promise<void> {
  await writeOutboxMessage(trx, { kind: READY_MAIL_KIND, dedupeKey: `mail:${randomUUID()}`, payload: { ...message } });
}
