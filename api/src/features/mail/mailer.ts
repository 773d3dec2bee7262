import nodemailer from 'nodemailer';
import type { MailConfig } from '../../config.js';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** A stable Message-ID (e.g. from the outbox row): a resent message is recognisably the same. */
  messageId?: string;
  /** Files sent with the message: the invoice of the event the e-mail is about, a viewing's .ics invitation. */
  attachments?: MailAttachment[];
  /** Extra header lines, e.g. an alert's List-Unsubscribe and List-Unsubscribe-Post (RFC 8058). */
  headers?: Record<string, string>;
}

export interface MailAttachment {
  filename: string;
  contentType: string;
  /** bytes, or text (an .ics invitation) */
  content: Buffer | string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
  close(): void;
}

/**
 * Sends through the SMTP server in SMTP_URL (the local dev SMTP server unless configured).
 * Without mail settings every send fails, so the caller logs it instead of pretending.
 */
export function createMailer(config: MailConfig | null): Mailer {
  if (!config) {
    return {
      send: () => Promise.reject(new Error('No SMTP server configured (SMTP_URL)')),
      close: () => undefined,
    };
  }
  // An attempt ends well within the outbox's claim (60 s) even when the server stalls, so a
  // slow attempt is never taken over and the e-mail sent twice.
  const transport = nodemailer.createTransport({
    url: config.smtpUrl,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  });
  return {
    async send(mail) {
      await transport.sendMail({ from: config.from, ...mail });
    },
    close() {
      transport.close();
    },
  };
}
