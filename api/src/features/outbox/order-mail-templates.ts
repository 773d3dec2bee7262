import { friendlyFormatIBAN } from 'ibantools';
import mjml2html from 'mjml';
import { sql, type Kysely } from 'kysely';
import type { DepositsConfig } from '../../config.js';
import type { Database } from '../../db/database.js';
import { formatReference } from '../deposits/deposit-rules.js';
import { escapeHtml } from '../../lib/html.js';
import { formatDate, formatEuro } from '../../lib/money.js';
import type { Mail } from '../mail/mailer.js';
import type { NamedAddressJson } from '../orders/orders.table.js';
import type { OrderMailPayload, OrderMailTemplate } from './order-mails.js';

// The shopper's order e-mails: MJML (tables and inline styles that real mail clients render)
// plus a plain-text part with the same content, euros and dates as on the shop's pages.

export interface OrderMailData {
  to: string;
  customerName: string;
  orderId: string;
  orderUrl: string;
  createdAt: Date;
  totalCents: number;
  items: { name: string; quantity: number; unitPriceCents: number }[];
  shipping: NamedAddressJson;
  billing: NamedAddressJson;
  carrier: string | null;
  trackingNumber: string | null;
  amountCents: number | null;
  /** a deposit order's bank transfer: what is still due, to whom, by when, with which reference */
  balance?: BalanceMailData | null;
}

export interface BalanceMailData {
  depositCents: number;
  paidCents: number;
  amountCents: number;
  /** YYYY-MM-DD */
  dueOn: string;
  reference: string;
  accountHolder: string;
  iban: string;
  bic: string;
}

export type BankDetails = Pick<DepositsConfig, 'bankAccountHolder' | 'bankIban' | 'bankBic'>;

const dayOf = (isoDay: string) => formatDate(new Date(`${isoDay}T00:00:00.000Z`));

/** The transfer instructions, one per line, the same in html and text. */
function transferLines(balance: BalanceMailData): string[] {
  return [
    `Amount: ${formatEuro(balance.amountCents)}`,
    `Account holder: ${balance.accountHolder}`,
    `IBAN: ${friendlyFormatIBAN(balance.iban) ?? balance.iban}`,
    `BIC: ${balance.bic}`,
    `Reference: ${formatReference(balance.reference)}`,
    `Due by: ${dayOf(balance.dueOn)}`,
  ];
}

const shortId = (id: string) => id.slice(0, 8).toUpperCase();

function addressLines(named: NamedAddressJson): string[] {
  const { address } = named;
  return [named.name, address.line1, `${address.postal_code} ${address.city}`, address.state, address.country];
}

interface Content {
  subject: string;
  heading: string;
  /** paragraphs, plain text */
  lines: string[];
  showItems: boolean;
  showAddresses: boolean;
  /** the bank transfer block (deposit and reminder e-mails) */
  transfer?: string[];
}

function needBalance(template: OrderMailTemplate, data: OrderMailData): BalanceMailData {
  if (!data.balance) throw new Error(`Order e-mail ${template} needs the order's balance and the shop's bank details`);
  return data.balance;
}

function contentFor(template: OrderMailTemplate, data: OrderMailData): Content {
  const ref = `order ${shortId(data.orderId)}`;
  const amount = data.amountCents === null ? '' : formatEuro(data.amountCents);
  switch (template) {
    case 'order_confirmation':
      return {
        subject: `Thank you for your order ${shortId(data.orderId)}`,
        heading: 'Your order is confirmed',
        lines: [`We have received your payment of ${formatEuro(data.totalCents)} for ${ref}, placed on ${formatDate(data.createdAt)}.`],
        showItems: true,
        showAddresses: true,
      };
    case 'deposit_received': {
      const balance = needBalance(template, data);
      return {
        subject: `Your boat is reserved: deposit received for order ${shortId(data.orderId)}`,
        heading: 'Your deposit is received',
        lines: [
          `We have received your deposit of ${formatEuro(balance.depositCents)} for ${ref} (total ${formatEuro(data.totalCents)}), placed on ${formatDate(data.createdAt)}. The boat is reserved for you.`,
          `Please transfer the balance of ${formatEuro(balance.amountCents)} by ${dayOf(balance.dueOn)}, quoting the reference exactly so that we can match your payment:`,
        ],
        transfer: transferLines(balance),
        showItems: true,
        showAddresses: true,
      };
    }
    case 'balance_reminder': {
      const balance = needBalance(template, data);
      return {
        subject: `Reminder: the balance of your order ${shortId(data.orderId)} is overdue`,
        heading: 'Your balance is overdue',
        lines: [
          `The balance of ${formatEuro(balance.amountCents)} for ${ref} was due on ${dayOf(balance.dueOn)} and we have not received it yet. Please transfer it now, quoting the reference:`,
        ],
        transfer: transferLines(balance),
        showItems: false,
        showAddresses: false,
      };
    }
    case 'order_shipped': {
      const tracking = [
        data.carrier ? `Carrier: ${data.carrier}` : null,
        data.trackingNumber ? `Tracking number: ${data.trackingNumber}` : null,
      ].filter((line): line is string => line !== null);
      return {
        subject: `Your order ${shortId(data.orderId)} has shipped`,
        heading: 'Your order is on its way',
        lines: [`We have handed over ${ref}.`, ...tracking],
        showItems: true,
        showAddresses: false,
      };
    }
    case 'order_delivered':
      return {
        subject: `Your order ${shortId(data.orderId)} was delivered`,
        heading: 'Your order was delivered',
        lines: [`${ref[0]!.toUpperCase()}${ref.slice(1)} has been delivered. Fair winds!`],
        showItems: false,
        showAddresses: false,
      };
    case 'order_cancelled':
      return {
        subject: `Your order ${shortId(data.orderId)} was cancelled`,
        heading: 'Your order was cancelled',
        lines: [
          `We have cancelled ${ref}.`,
          ...(amount ? [`${amount} is refunded to your card.`] : []),
          // A reserved order cancelled without a refund: the shop kept the deposit.
          ...(!amount && data.balance ? [`Your deposit of ${formatEuro(data.balance.depositCents)} is not refunded.`] : []),
        ],
        showItems: false,
        showAddresses: false,
      };
    case 'boat_unavailable':
      return {
        subject: `Your payment for order ${shortId(data.orderId)} is being refunded`,
        heading: 'The boat is no longer available',
        lines: [
          `Your payment for ${ref} arrived after the time we could hold the boat for you, and meanwhile another buyer reserved or bought it.`,
          `We are refunding ${amount || 'your payment'} to your card automatically; you do not need to do anything. It may take a few days to appear on your statement.`,
        ],
        showItems: true,
        showAddresses: false,
      };
    case 'order_refunded':
      return {
        subject: `Refund of ${amount} for your order ${shortId(data.orderId)}`,
        heading: 'We have refunded you',
        lines: [`${amount} of ${ref} is refunded to your card. It may take a few days to appear on your statement.`],
        showItems: false,
        showAddresses: false,
      };
  }
}

export async function renderOrderMail(template: OrderMailTemplate, data: OrderMailData): Promise<Mail> {
  const content = contentFor(template, data);
  const itemRows = data.items
    .map(
      (item) =>
        `<tr><td style="padding:4px 0">${escapeHtml(item.name)}</td><td style="padding:4px 0;text-align:right">${item.quantity}</td>` +
        `<td style="padding:4px 0;text-align:right">${escapeHtml(formatEuro(item.unitPriceCents))}</td></tr>`,
    )
    .join('');
  const address = (title: string, named: NamedAddressJson) =>
    `<mj-column><mj-text><strong>${title}</strong><br/>${addressLines(named).map(escapeHtml).join('<br/>')}</mj-text></mj-column>`;
  const mjml = `
<mjml>
  <mj-head>
    <mj-title>${escapeHtml(content.subject)}</mj-title>
    <mj-attributes><mj-all font-family="Helvetica, Arial, sans-serif" /><mj-text font-size="15px" line-height="22px" color="#1b2a3a" /></mj-attributes>
  </mj-head>
  <mj-body background-color="#f2f5f8">
    <mj-section background-color="#0b3d5c"><mj-column><mj-text color="#ffffff" font-size="20px">Boat shop</mj-text></mj-column></mj-section>
    <mj-section background-color="#ffffff">
      <mj-column>
        <mj-text font-size="22px" font-weight="bold">${escapeHtml(content.heading)}</mj-text>
        <mj-text>Hello ${escapeHtml(data.customerName)},</mj-text>
        ${content.lines.map((line) => `<mj-text>${escapeHtml(line)}</mj-text>`).join('\n        ')}
        ${
          content.transfer
            ? `<mj-text padding="12px 25px" container-background-color="#eef3f7" font-family="Menlo, Consolas, monospace">${content.transfer.map(escapeHtml).join('<br/>')}</mj-text>`
            : ''
        }
        ${
          content.showItems
            ? `<mj-table>
          <tr style="border-bottom:1px solid #d0d7de;text-align:left"><th>Item</th><th style="text-align:right">Quantity</th><th style="text-align:right">Price</th></tr>
          ${itemRows}
          <tr style="border-top:1px solid #d0d7de"><td style="padding:4px 0"><strong>Total</strong></td><td></td><td style="padding:4px 0;text-align:right"><strong>${escapeHtml(formatEuro(data.totalCents))}</strong></td></tr>
        </mj-table>`
            : ''
        }
        <mj-button href="${escapeHtml(data.orderUrl)}" background-color="#0b3d5c">View your order</mj-button>
      </mj-column>
    </mj-section>
    ${content.showAddresses ? `<mj-section background-color="#ffffff">${address('Shipping address', data.shipping)}${address('Billing address', data.billing)}</mj-section>` : ''}
  </mj-body>
</mjml>`;
  // mjml 4 renders synchronously; its types (@types/mjml 5) say a promise: await covers both.
  const { html, errors } = await mjml2html(mjml, { validationLevel: 'soft' });
  if (errors.length > 0) throw new Error(`Order e-mail template ${template}: ${errors.map((e) => e.formattedMessage).join('; ')}`);

  const text = [
    content.heading,
    '',
    `Hello ${data.customerName},`,
    '',
    ...content.lines,
    ...(content.transfer ? ['', ...content.transfer] : []),
    ...(content.showItems
      ? [
          '',
          ...data.items.map((item) => `${item.quantity} × ${item.name}: ${formatEuro(item.unitPriceCents)}`),
          `Total: ${formatEuro(data.totalCents)}`,
        ]
      : []),
    ...(content.showAddresses
      ? ['', 'Shipping address:', ...addressLines(data.shipping), '', 'Billing address:', ...addressLines(data.billing)]
      : []),
    '',
    `Your order: ${data.orderUrl}`,
  ].join('\n');
  return { to: data.to, subject: content.subject, html, text };
}

/** The order as it is now, read when the message is sent (items and addresses never change). */
export async function loadOrderMail(
  db: Kysely<Database>,
  payload: OrderMailPayload,
  publicUrl: string,
  bank: BankDetails | null = null,
): Promise<Mail | null> {
  const order = await db
    .selectFrom('orders as o')
    .innerJoin('users as u', 'u.id', 'o.user_id')
    .select([
      'o.id',
      'o.created_at',
      'o.total_cents',
      'o.shipping',
      'o.billing',
      'o.carrier',
      'o.tracking_number',
      'u.email',
      'u.display_name',
      'o.deposit_cents',
      'o.bank_reference',
      sql<string | null>`to_char(o.balance_due_on, 'YYYY-MM-DD')`.as('due_on'),
      sql<string>`(select coalesce(sum(e.amount_cents), 0) from order_ledger_entries e where e.order_id = o.id and e.kind in ('card_capture', 'bank_transfer_in'))::text`.as(
        'paid_cents',
      ),
    ])
    .where('o.id', '=', payload.orderId)
    .executeTakeFirst();
  if (!order) return null;
  const items = await db
    .selectFrom('order_items')
    .select(['name', 'quantity', 'unit_price_cents'])
    .where('order_id', '=', order.id)
    .orderBy('name')
    .orderBy('id')
    .execute();
  return renderOrderMail(payload.template, {
    to: order.email,
    customerName: order.display_name,
    orderId: order.id,
    orderUrl: `${publicUrl}/order/${order.id}`,
    createdAt: order.created_at,
    totalCents: order.total_cents,
    items: items.map((item) => ({ name: item.name, quantity: item.quantity, unitPriceCents: item.unit_price_cents })),
    shipping: order.shipping,
    billing: order.billing,
    carrier: order.carrier,
    trackingNumber: order.tracking_number,
    amountCents: payload.amountCents,
    balance:
      bank && order.deposit_cents !== null && order.bank_reference && order.due_on
        ? {
            depositCents: order.deposit_cents,
            paidCents: Number(order.paid_cents),
            amountCents: Math.max(0, order.total_cents - Number(order.paid_cents)),
            dueOn: order.due_on,
            reference: order.bank_reference,
            accountHolder: bank.bankAccountHolder,
            iban: bank.bankIban,
            bic: bank.bankBic,
          }
        : null,
  });
}
