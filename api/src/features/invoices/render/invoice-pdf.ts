import { createRequire } from 'node:module';
import path from 'node:path';
import PDFDocument from 'pdfkit';
import { day, euros, percent, TITLES } from './format.js';
import { lineLabel, totalsOf, vatBreakdown, wordingsOf, type InvoiceView } from './invoice-view.js';

// The human-readable document, laid out with pdfkit. The fonts are embedded (DejaVu Sans, which
// writes every European name and address), as PDF/A requires; the structured invoice is attached
// afterwards (factur-x.ts).

const require = createRequire(import.meta.url);
const FONT_DIR = path.join(path.dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf');
const REGULAR = path.join(FONT_DIR, 'DejaVuSans.ttf');
const BOLD = path.join(FONT_DIR, 'DejaVuSans-Bold.ttf');

const LEFT = 50;
const WIDTH = 495;

function countryLine(country: string) {
  return country;
}

export function renderInvoicePdf(view: InvoiceView): Promise<Buffer> {
  const { snapshot } = view;
  const doc = new PDFDocument({
    size: 'A4',
    margin: LEFT,
    pdfVersion: '1.7',
    lang: 'en',
    tagged: false,
    info: {
      Title: `${TITLES[view.kind]} ${view.number}`,
      Author: snapshot.seller.name,
      Subject: `Order ${snapshot.orderId}`,
      CreationDate: view.issuedAt,
      ModDate: view.issuedAt,
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

  const totals = totalsOf(view);
  const text = (value: string, options: PDFKit.Mixins.TextOptions = {}) => doc.text(value, options);

  // Title and the document's identity.
  doc.font('bold').fontSize(18);
  text(`${TITLES[view.kind]} ${view.number}`);
  doc.moveDown(0.3).font('regular').fontSize(9);
  text(`Invoice number: ${view.number}`);
  text(`Date of issue: ${day(view.issuedOn)}`);
  if (view.kind === 'advance') text(`Advance payment received on: ${day(snapshot.eventOn)}`);
  else if (view.kind === 'credit_note') text(`Date of the refund: ${day(snapshot.eventOn)}`);
  else text(`Date of supply and of payment: ${day(snapshot.eventOn)}`);
  text(`Order: ${snapshot.orderId}, placed on ${day(snapshot.orderedOn)}`);
  if (snapshot.corrects) {
    text(`This credit note refers to invoice ${snapshot.corrects.number} of ${day(snapshot.corrects.issuedOn)}.`);
  }

  // The two parties.
  const partiesTop = doc.y + 12;
  const party = (x: number, heading: string, lines: string[]) => {
    doc.font('bold').fontSize(10).text(heading, x, partiesTop, { width: 240 });
    doc.font('regular').fontSize(9);
    for (const line of lines) doc.text(line, x, doc.y, { width: 240 });
    return doc.y;
  };
  const sellerLines = [
    snapshot.seller.name,
    ...snapshot.seller.addressLines,
    countryLine(snapshot.seller.country),
    `VAT ID: ${snapshot.seller.vatId}`,
    ...(snapshot.seller.taxNumber ? [`Tax number: ${snapshot.seller.taxNumber}`] : []),
  ];
  const buyerLines = [
    snapshot.buyer.name,
    ...snapshot.buyer.addressLines,
    countryLine(snapshot.buyer.country),
    ...(snapshot.buyer.vatId ? [`VAT ID: ${snapshot.buyer.vatId}`] : []),
    ...(snapshot.buyer.viesConsultationNumber ? [`VIES consultation number: ${snapshot.buyer.viesConsultationNumber}`] : []),
    snapshot.buyer.type === 'business' ? 'Buying as a business' : 'Buying as a private person',
  ];
  const sellerBottom = party(LEFT, 'Seller', sellerLines);
  const buyerBottom = party(LEFT + 255, 'Buyer', buyerLines);
  doc.x = LEFT;
  doc.y = Math.max(sellerBottom, buyerBottom) + 16;

  // The lines: what was supplied, net, rate, VAT and gross; a margin-scheme line shows no VAT.
  const showsVat = snapshot.lines.every((line) => line.showsVat);
  const columns = showsVat
    ? [
        { title: 'Description', width: 185, align: 'left' as const },
        { title: 'Qty', width: 30, align: 'right' as const },
        { title: 'Net', width: 80, align: 'right' as const },
        { title: 'VAT rate', width: 55, align: 'right' as const },
        { title: 'VAT', width: 65, align: 'right' as const },
        { title: 'Total', width: 80, align: 'right' as const },
      ]
    : [
        { title: 'Description', width: 335, align: 'left' as const },
        { title: 'Qty', width: 50, align: 'right' as const },
        { title: 'Price', width: 110, align: 'right' as const },
      ];
  const row = (cells: string[], font: 'regular' | 'bold' = 'regular') => {
    const top = doc.y;
    let x = LEFT;
    let bottom = top;
    doc.font(font).fontSize(9);
    cells.forEach((cell, index) => {
      const column = columns[index]!;
      doc.text(cell, x, top, { width: column.width - 6, align: column.align });
      bottom = Math.max(bottom, doc.y);
      x += column.width;
    });
    doc.x = LEFT;
    doc.y = bottom + 4;
  };
  row(
    columns.map((column) => column.title),
    'bold',
  );
  doc
    .moveTo(LEFT, doc.y)
    .lineTo(LEFT + WIDTH, doc.y)
    .stroke();
  doc.y += 4;
  for (const line of snapshot.lines) {
    const label = lineLabel(view, line.description);
    row(
      showsVat
        ? [label, String(line.quantity), euros(line.netCents), percent(line.rateBasisPoints), euros(line.vatCents), euros(line.totalCents)]
        : [label, String(line.quantity), euros(line.totalCents)],
    );
  }
  doc
    .moveTo(LEFT, doc.y)
    .lineTo(LEFT + WIDTH, doc.y)
    .stroke();
  doc.y += 8;

  // VAT per rate, and the totals.
  const sum = (label: string, value: string, font: 'regular' | 'bold' = 'regular', labelX = LEFT + 215) => {
    const top = doc.y;
    doc
      .font(font)
      .fontSize(9)
      .text(label, labelX, top, { width: LEFT + 400 - labelX });
    const bottom = doc.y;
    doc.text(value, LEFT + 405, top, { width: 90, align: 'right' });
    doc.x = LEFT;
    doc.y = Math.max(bottom, doc.y);
  };
  if (showsVat) {
    doc.font('bold').fontSize(10).text('VAT per rate', LEFT, doc.y);
    for (const group of vatBreakdown(view)) {
      const label =
        group.categoryCode === 'S'
          ? `${percent(group.rateBasisPoints)} on ${euros(group.netCents)}`
          : `0,00 % (exempt, ${group.categoryCode}${group.exemptionReasonCode ? ` ${group.exemptionReasonCode}` : ''}) on ${euros(group.netCents)}`;
      sum(label, euros(group.vatCents), 'regular', LEFT);
    }
    doc.moveDown(0.5);
    sum('Net total', euros(totals.netCents));
    sum('VAT total', euros(totals.vatCents));
  } else {
    sum('VAT', 'not shown (margin scheme)');
  }
  sum(view.kind === 'credit_note' ? 'Total credited' : 'Total', euros(totals.totalCents), 'bold');

  // A final invoice deducts the advance invoices issued before it.
  if (snapshot.advances.length > 0) {
    doc.moveDown(0.8);
    doc.font('bold').fontSize(10).text('Advance payments deducted', LEFT, doc.y);
    for (const advance of snapshot.advances) {
      sum(
        `Advance invoice ${advance.number} of ${day(advance.issuedOn)} (net ${euros(advance.netCents)}, VAT ${euros(advance.vatCents)})`,
        `− ${euros(advance.totalCents)}`,
        'regular',
        LEFT,
      );
    }
    sum('Balance received', euros(totals.dueCents), 'bold');
  }

  // The legal wording: exemption, reverse charge, margin scheme, new means of transport.
  const wordings = wordingsOf(view);
  if (wordings.length > 0) {
    doc.moveDown(1);
    doc.font('bold').fontSize(10).text('VAT', LEFT, doc.y, { width: WIDTH });
    doc.font('regular').fontSize(9);
    for (const wording of wordings) doc.text(wording, LEFT, doc.y, { width: WIDTH });
  }

  doc.moveDown(1);
  doc.font('regular').fontSize(9);
  const paidText =
    view.kind === 'credit_note'
      ? `The amount of ${euros(totals.totalCents)} was refunded to the buyer.`
      : `Paid: ${euros(view.kind === 'final' ? totals.dueCents : totals.totalCents)} received. Nothing is left to pay on this document.`;
  doc.text(paidText, LEFT, doc.y, { width: WIDTH });
  if (snapshot.bank) {
    doc.text(`Bank account: ${snapshot.bank.accountHolder}, IBAN ${snapshot.bank.iban}, BIC ${snapshot.bank.bic}`, LEFT, doc.y, {
      width: WIDTH,
    });
  }
  doc.end();
  return finished;
}
