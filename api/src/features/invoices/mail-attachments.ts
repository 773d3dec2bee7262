import type { Db } from '../../db/database.js';
import type { MailAttachment } from '../mail/mailer.js';
import type { OrderMailTemplate } from '../outbox/order-mails.js';
import { storedInvoiceDocument } from './invoice-documents.js';
import type { InvoiceKind } from './invoices.table.js';
import { loadProForma } from './pro-forma.js';
import { proFormaFileName, renderProFormaPdf } from './render/pro-forma-pdf.js';

// An order e-mail carries the document its event issued. Both are written in the event's one
// transaction (the document by recordMoneyEventDocument, the e-mail by the order's transition),
// so both rows carry that transaction's now(): the document of an e-mail is the order's document
// of the e-mail's kind issued at the instant the e-mail was written. An e-mail whose event issued
// nothing (shipped, delivered, a cancellation that kept the deposit) carries nothing. The file
// is the stored one, rendered and stored on first use here at send time, outside the money's
// transaction, so a resent e-mail carries the same bytes as the download from the order page.

const DOCUMENT_OF_MAIL: Partial<Record<OrderMailTemplate, InvoiceKind[]>> = {
  deposit_received: ['advance'],
  order_confirmation: ['invoice', 'final'],
  order_refunded: ['credit_note'],
  order_cancelled: ['credit_note'],
};

/** The e-mails that ask for the balance by transfer also carry the pro-forma with its QR code. */
const ASKS_FOR_BALANCE: OrderMailTemplate[] = ['deposit_received', 'balance_reminder'];

export async function eventDocumentAttachments(
  db: Db,
  outboxId: string,
  mail: { template: OrderMailTemplate; orderId: string },
): Promise<MailAttachment[]> {
  const attachments: MailAttachment[] = [];
  const kinds = DOCUMENT_OF_MAIL[mail.template];
  const invoices = !kinds
    ? []
    : await db
        .selectFrom('invoices as i')
        .innerJoin('outbox as m', (join) => join.onRef('m.created_at', '=', 'i.issued_at'))
        .select('i.id')
        .where('m.id', '=', outboxId)
        .where('i.order_id', '=', mail.orderId)
        .where('i.kind', 'in', kinds)
        .orderBy('i.sequence')
        .execute();
  for (const invoice of invoices) {
    const document = await storedInvoiceDocument(db, invoice.id);
    if (document) attachments.push({ filename: document.fileName, contentType: document.mediaType, content: document.content });
  }
  // What is owed when the e-mail leaves (a transfer received since is deducted); nothing once paid.
  const proForma = ASKS_FOR_BALANCE.includes(mail.template) ? await loadProForma(db, null, mail.orderId) : undefined;
  if (proForma) {
    attachments.push({ filename: proFormaFileName(proForma), contentType: 'application/pdf', content: await renderProFormaPdf(proForma) });
  }
  return attachments;
}
