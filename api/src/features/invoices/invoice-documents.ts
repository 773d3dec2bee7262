import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import { embedFacturX } from './render/factur-x.js';
import { renderInvoicePdf } from './render/invoice-pdf.js';
import type { InvoiceView } from './render/invoice-view.js';
import type { InvoiceSnapshot } from './invoices.table.js';

// Each document's file is rendered once, from its frozen snapshot, and stored with its SHA-256;
// every download afterwards serves the stored bytes, so what the buyer fetches next year is the
// file of today, byte for byte. The store is one small interface: the database here, an object
// store later without touching the callers.

export interface StoredDocument {
  fileName: string;
  mediaType: string;
  content: Buffer;
  sha256: string;
}

export interface DocumentStore {
  get(invoiceId: string): Promise<StoredDocument | undefined>;
  /** Keeps the first file stored for a document: a second put (a concurrent first download) changes nothing. */
  putOnce(invoiceId: string, document: StoredDocument): Promise<void>;
}

export function databaseDocumentStore(db: Db): DocumentStore {
  return {
    async get(invoiceId) {
      const row = await db
        .selectFrom('invoice_documents')
        .select(['file_name', 'media_type', 'content', 'sha256'])
        .where('invoice_id', '=', invoiceId)
        .executeTakeFirst();
      return row
        ? { fileName: row.file_name, mediaType: row.media_type, content: Buffer.from(row.content), sha256: row.sha256 }
        : undefined;
    },
    async putOnce(invoiceId, document) {
      await db
        .insertInto('invoice_documents')
        .values({
          invoice_id: invoiceId,
          file_name: document.fileName,
          media_type: document.mediaType,
          content: document.content,
          sha256: document.sha256,
        })
        .onConflict((oc) => oc.column('invoice_id').doNothing())
        .execute();
    },
  };
}

export const sha256 = (content: Uint8Array) => createHash('sha256').update(content).digest('hex');

/** The renderers' view of an issued document; undefined without a snapshot (issued before documents were rendered). */
export async function invoiceView(db: Db, invoiceId: string): Promise<InvoiceView | undefined> {
  const row = await db
    .selectFrom('invoices')
    .select(['number', 'kind', 'issued_at', 'snapshot', sql<string>`to_char(issued_at at time zone 'UTC', 'YYYY-MM-DD')`.as('issued_on')])
    .where('id', '=', invoiceId)
    .executeTakeFirst();
  if (!row?.snapshot) return undefined;
  const snapshot = (typeof row.snapshot === 'string' ? JSON.parse(row.snapshot) : row.snapshot) as InvoiceSnapshot;
  return { number: row.number, kind: row.kind, issuedOn: row.issued_on, issuedAt: row.issued_at, snapshot };
}

/** The PDF/A-3 with its embedded structured invoice, rendered from the view. */
export async function renderDocument(view: InvoiceView): Promise<StoredDocument> {
  const content = await embedFacturX(view, await renderInvoicePdf(view));
  return { fileName: `${view.number}.pdf`, mediaType: 'application/pdf', content, sha256: sha256(content) };
}

/**
 * The document's stored file; the first request renders and stores it. Two first requests at
 * once both render, and the store keeps one: both answer what it kept.
 */
export async function storedInvoiceDocument(
  db: Db,
  invoiceId: string,
  store = databaseDocumentStore(db),
): Promise<StoredDocument | undefined> {
  const stored = await store.get(invoiceId);
  if (stored) return stored;
  const view = await invoiceView(db, invoiceId);
  if (!view) return undefined;
  await store.putOnce(invoiceId, await renderDocument(view));
  return store.get(invoiceId);
}
