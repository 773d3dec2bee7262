import { randomUUID } from 'node:crypto';
import PostalMime from 'postal-mime';

/** One received e-mail as the dev mailbox shows and serves it. */
export interface StoredMessage {
  id: string;
  /** Envelope recipients (To, Cc and Bcc alike), as the SMTP client gave them. */
  to: string[];
  /** The From header, `Name <address>` when it has a name. */
  from: string;
  subject: string;
  text: string;
  html: string;
  /** The Message-ID header (`<…>`), or null without one: a message sent twice has the same. */
  messageId: string | null;
  /** ISO 8601: the Date header, or the time of receipt when it has none. */
  date: string;
  /** The files sent with it, as a mail client offers them. */
  attachments: StoredAttachment[];
  /** The List-* header lines (List-Unsubscribe, List-Unsubscribe-Post), lower-case names: what a mail client's unsubscribe button reads. */
  listHeaders: Record<string, string>;
}

export interface StoredAttachment {
  filename: string;
  contentType: string;
  size: number;
  /** the bytes, base64 */
  content: string;
}

function formatAddress(address: { name?: string; address?: string } | undefined): string {
  if (!address?.address) return address?.name ?? '';
  return address.name ? `${address.name} <${address.address}>` : address.address;
}

/** Keeps the newest messages in memory only: a dev mailbox must not grow without bound. */
export class MailStore {
  readonly #messages: StoredMessage[] = [];

  constructor(readonly capacity: number) {}

  async receive(raw: Buffer, recipients: string[], receivedAt = new Date()): Promise<StoredMessage> {
    const parsed = await PostalMime.parse(raw, { attachmentEncoding: 'arraybuffer' });
    const headerDate = parsed.date ? new Date(parsed.date) : undefined;
    const message: StoredMessage = {
      id: randomUUID(),
      to: recipients,
      from: formatAddress(parsed.from),
      subject: parsed.subject ?? '',
      messageId: parsed.messageId ?? null,
      text: parsed.text ?? '',
      html: parsed.html ?? '',
      date: (headerDate && !Number.isNaN(headerDate.getTime()) ? headerDate : receivedAt).toISOString(),
      listHeaders: Object.fromEntries(
        parsed.headers.filter((header) => header.key.startsWith('list-')).map((header) => [header.key, header.value]),
      ),
      attachments: parsed.attachments.map((attachment, index) => {
        const content =
          typeof attachment.content === 'string' ? Buffer.from(attachment.content, 'utf8') : Buffer.from(attachment.content as ArrayBuffer);
        return {
          filename: attachment.filename ?? `attachment-${index + 1}`,
          contentType: attachment.mimeType,
          size: content.length,
          content: content.toString('base64'),
        };
      }),
    };
    this.#messages.unshift(message);
    this.#messages.splice(this.capacity);
    return message;
  }

  /** Newest first; `to` matches any recipient, ignoring case as mail servers do. */
  list(to?: string): StoredMessage[] {
    if (!to) return [...this.#messages];
    const wanted = to.trim().toLowerCase();
    return this.#messages.filter((message) => message.to.some((address) => address.toLowerCase() === wanted));
  }

  find(id: string): StoredMessage | undefined {
    return this.#messages.find((message) => message.id === id);
  }

  clear() {
    this.#messages.length = 0;
  }
}
