import { createRequire } from 'node:module';
import path from 'node:path';
import { friendlyFormatIBAN } from 'ibantools';
import PDFDocument from 'pdfkit';
import QRCode from 'qrcode';
import { formatReference } from '../../deposits/deposit-rules.js';
import { epcPayload, type ProForma } from '../pro-forma.js';
import { day, euros } from './format.js';

// The pro-forma laid out with the invoices' stack (pdfkit, DejaVu Sans embedded): who asks whom
// for how much, by when, to which account with which reference, and the EPC QR code carrying the
// same transfer. Its title says it is a payment request and not an invoice; it has no number.

const require = createRequire(import.meta.url);
const FONT_DIR = path.join(path.dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf');
const REGULAR = path.join(FONT_DIR, 'DejaVuSans.ttf');
const BOLD = path.join(FONT_DIR, 'DejaVuSans-Bold.ttf');

const LEFT = 50;
const WIDTH = 495;
/** The printed code: 45 mm, above the EPC's recommended minimum, at error correction M as it asks. */
const QR_POINTS = 128;

export const PRO_FORMA_TITLE = 'Pro-forma: payment request';

/** The EPC QR code as a PNG (error correction M, as EPC069-12 requires). */
export function epcQrPng(payload: string): Promise<Buffer> {
  return QRCode.toBuffer(payload, { type: 'png', errorCorrectionLevel: 'M', margin: 4, scale: 8 });
}

export const proFormaFileName = (proForma: Pick<ProForma, 'orderId'>) => `pro-forma-${proForma.orderId.slice(0, 8).toUpperCase()}.pdf`;

export async function renderProFormaPdf(proForma: ProForma): Promise<Buffer> {
  const payload = epcPayload({
    bic: proForma.bank.bic,
    name: proForma.bank.accountHolder,
    iban: proForma.bank.iban,
    amountCents: proForma.amountCents,
    reference: proForma.reference,
  });
  const qr = await epcQrPng(payload);
  const issuedAt = new Date(`${proForma.issuedOn}T00:00:00.000Z`);
  const doc = new PDFDocument({
    size: 'A4',
    margin: LEFT,
    pdfVersion: '1.7',
    lang: 'en',
    info: {
      Title: `${PRO_FORMA_TITLE}, order ${proForma.orderId}`,
      Author: proForma.seller.name,
      Subject: `Balance of order ${proForma.orderId}`,
      CreationDate: issuedAt,
      ModDate: issuedAt,
    },
  });
  doc.registerFont('regular', REGULAR);
  doc.registerFont('bold', BOLD);
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const finished = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  doc.font('bold').fontSize(18).text(PRO_FORMA_TITLE);
  doc.moveDown(0.3).font('regular').fontSize(9);
  doc.text('This is not an invoice. It asks for the balance of your order; the final invoice follows when we receive it.');
  doc.text(`Date: ${day(proForma.issuedOn)}`);
  doc.text(`Order: ${proForma.orderId}, placed on ${day(proForma.orderedOn)}`);

  const partiesTop = doc.y + 12;
  const party = (x: number, heading: string, lines: string[]) => {
    doc.font('bold').fontSize(10).text(heading, x, partiesTop, { width: 240 });
    doc.font('regular').fontSize(9);
    for (const line of lines) doc.text(line, x, doc.y, { width: 240 });
    return doc.y;
  };
  const { address } = proForma.buyer;
  const sellerBottom = party(LEFT, 'From', [
    proForma.seller.name,
    ...proForma.seller.addressLines,
    proForma.seller.country,
    `VAT ID: ${proForma.seller.vatId}`,
  ]);
  const buyerBottom = party(LEFT + 255, 'To', [
    proForma.buyer.name,
    address.line1,
    `${address.postal_code} ${address.city}`,
    ...(address.state ? [address.state] : []),
    address.country,
  ]);
  doc.x = LEFT;
  doc.y = Math.max(sellerBottom, buyerBottom) + 16;

  const sum = (label: string, value: string, font: 'regular' | 'bold' = 'regular') => {
    const top = doc.y;
    doc.font(font).fontSize(10).text(label, LEFT, top, { width: 300 });
    const bottom = doc.y;
    doc.text(value, LEFT + 305, top, { width: 190, align: 'right' });
    doc.x = LEFT;
    doc.y = Math.max(bottom, doc.y);
  };
  sum('Order total', euros(proForma.totalCents));
  sum('Received so far', `− ${euros(proForma.paidCents)}`);
  doc
    .moveTo(LEFT, doc.y + 2)
    .lineTo(LEFT + WIDTH, doc.y + 2)
    .stroke();
  doc.y += 6;
  sum('Amount due', euros(proForma.amountCents), 'bold');
  sum('Due by', day(proForma.dueOn), 'bold');

  doc.moveDown(1.2);
  const transferTop = doc.y;
  doc.font('bold').fontSize(11).text('Pay by bank transfer', LEFT, transferTop, { width: 330 });
  doc.font('regular').fontSize(10);
  for (const line of [
    `Account holder: ${proForma.bank.accountHolder}`,
    `IBAN: ${friendlyFormatIBAN(proForma.bank.iban) ?? proForma.bank.iban}`,
    `BIC: ${proForma.bank.bic}`,
    `Amount: ${euros(proForma.amountCents)}`,
    `Reference: ${formatReference(proForma.reference)}`,
  ]) {
    doc.text(line, LEFT, doc.y, { width: 330 });
  }
  doc.moveDown(0.5);
  doc
    .fontSize(9)
    .text(
      'Quote the reference exactly: it is how we match your transfer to your order. Or scan the code with your banking app: it fills in the transfer.',
      LEFT,
      doc.y,
      { width: 330 },
    );
  const textBottom = doc.y;
  doc.image(qr, LEFT + WIDTH - QR_POINTS, transferTop, { width: QR_POINTS, height: QR_POINTS });
  doc
    .fontSize(8)
    .text('EPC QR code (GiroCode)', LEFT + WIDTH - QR_POINTS, transferTop + QR_POINTS + 2, { width: QR_POINTS, align: 'center' });
  doc.x = LEFT;
  doc.y = Math.max(textBottom, doc.y) + 16;
  doc.end();
  return finished;
}
