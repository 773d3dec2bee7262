import type { Db } from '../../db/database.js';
import type { MailAttachment } from '../mail/mailer.js';
import type { OrderMailTemplate } from '../outbox/order-mails.js';
import { storedInvoiceDocument } from './invoice-documents.js';
import type { InvoiceKind } from './invoices.table.js';

// The document an order e-mail carries: the one its event issued, in the same transaction that
// wrote the e-mail to the outbox. The deposit's e-mail carries the order's first advance invoice
// (the deposit's; later advances are parts of the balance, which send no e-mail), the confirmation
// the order's invoice (card) or final invoice (balance by transfer): each order has one of those.
// The file is the stored one (rendered and stored on first use, outside the money's transaction),
// so a resent e-mail carries the same bytes as the download.

const DOCUMENT_OF_MAIL: Partial<Record<OrderMailTemplate, InvoiceKind[]>> = {
  deposit_received: ['advance'],
  order_confirmation: ['invoice', 'final'],
};

export async function eventDocumentAttachments(db: Db, template: OrderMailTemplate, orderId: string): Promise<MailAttachment[]> {
  const kinds = DOCUMENT_OF_MAIL[template];
  if (!kinds) return [];
  const invoice = await db
    .selectFrom('invoices')
    .select('id')
    .where('order_id', '=', orderId)
    .where('kind', 'in', kinds)
    .orderBy('issued_at')
    .orderBy('sequence')
    .limit(1)
    .executeTakeFirst();
  if (!invoice) return [];
  const document = await storedInvoiceDocument(db, invoice.id);
  return document ? [{ filename: document.fileName, contentType: document.mediaType, content: document.content }] : [];
}
