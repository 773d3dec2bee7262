import { describe, expect, it } from 'vitest';
import { renderOrderMail, type OrderMailData } from './order-mail-templates.js';

const data: OrderMailData = {
  to: 'sandy@example.test',
  customerName: 'Sandy <Shopper>',
  orderId: '0a1b2c3d-0000-4000-8000-000000000001',
  orderUrl: 'http://localhost:3000/order/0a1b2c3d-0000-4000-8000-000000000001',
  createdAt: new Date('2026-11-22T10:00:00Z'),
  totalCents: 2_000_000,
  items: [
    { name: 'Nordvik 27 Classic', quantity: 1, unitPriceCents: 1_500_000 },
    { name: 'Dinghy', quantity: 2, unitPriceCents: 250_000 },
  ],
  shipping: { name: 'Sandy Shopper', address: { line1: '1 Harbour Road', city: 'Cork', state: 'Cork', postal_code: 'T12', country: 'IE' } },
  billing: {
    name: 'Sandy Card-Owner',
    address: { line1: '2 Quay Street', city: 'Galway', state: 'Galway', postal_code: 'H91', country: 'IE' },
  },
  carrier: 'DHL Marine',
  trackingNumber: 'JD0146',
  amountCents: 100_000,
};

const nbsp = '\u00a0';

describe('order e-mails', async () => {
  it('confirms an order with items, quantities, prices, total, both addresses and the order link, in html and text', async () => {
    const mail = await renderOrderMail('order_confirmation', data);
    expect(mail.subject).toBe('Thank you for your order 0A1B2C3D');
    expect(mail.text).toContain(`1 × Nordvik 27 Classic: 15.000,00${nbsp}€`);
    expect(mail.text).toContain(`2 × Dinghy: 2.500,00${nbsp}€`);
    expect(mail.text).toContain(`Total: 20.000,00${nbsp}€`);
    expect(mail.text).toContain('placed on 22/11/2026');
    expect(mail.text).toContain('Shipping address:\nSandy Shopper\n1 Harbour Road');
    expect(mail.text).toContain('Billing address:\nSandy Card-Owner\n2 Quay Street');
    expect(mail.text).toContain(`Your order: ${data.orderUrl}`);
    expect(mail.html).toContain('Nordvik 27 Classic');
    expect(mail.html).toContain(`href="${data.orderUrl}"`);
    // Names are text, never markup.
    expect(mail.html).toContain('Sandy &lt;Shopper&gt;');
    expect(mail.html).not.toContain('<Shopper>');
  });

  it('tells the carrier and tracking number when shipped, and the amount when refunded', async () => {
    expect((await renderOrderMail('order_shipped', data)).text).toContain('Carrier: DHL Marine\nTracking number: JD0146');
    const refunded = await renderOrderMail('order_refunded', data);
    expect(refunded.subject).toBe(`Refund of 1.000,00${nbsp}€ for your order 0A1B2C3D`);
    expect(refunded.html).toContain(`1.000,00${nbsp}€`);
    expect((await renderOrderMail('order_delivered', data)).subject).toBe('Your order 0A1B2C3D was delivered');
    expect((await renderOrderMail('order_cancelled', data)).text).toContain(`1.000,00${nbsp}€ is refunded to your card.`);
  });

  const balance = {
    depositCents: 28_900_000,
    paidCents: 28_900_000,
    amountCents: 260_100_000,
    dueOn: '2026-12-07',
    reference: 'RF18539007547034',
    accountHolder: 'Boat Shop <Ltd>',
    iban: 'DE89370400440532013000',
    bic: 'COBADEFFXXX',
  };

  it('tells what to transfer when the deposit is received: amount, holder, IBAN, BIC, due date, RF reference, link', async () => {
    const mail = await renderOrderMail('deposit_received', { ...data, totalCents: 289_000_000, balance });
    expect(mail.subject).toBe('Your boat is reserved: deposit received for order 0A1B2C3D');
    for (const part of [mail.text, mail.html]) {
      expect(part).toContain(`deposit of 289.000,00${nbsp}€`);
      expect(part).toContain(`Amount: 2.601.000,00${nbsp}€`);
      expect(part).toContain('IBAN: DE89 3704 0044 0532 0130 00');
      expect(part).toContain('BIC: COBADEFFXXX');
      expect(part).toContain('Reference: RF18 5390 0754 7034');
      expect(part).toContain('Due by: 07/12/2026');
      expect(part).toContain(data.orderUrl);
    }
    expect(mail.text).toContain('Account holder: Boat Shop <Ltd>');
    expect(mail.html).toContain('Account holder: Boat Shop &lt;Ltd&gt;');
  });

  it('reminds of an overdue balance with the same transfer details', async () => {
    const mail = await renderOrderMail('balance_reminder', { ...data, balance: { ...balance, amountCents: 100_000_000 } });
    expect(mail.subject).toBe('Reminder: the balance of your order 0A1B2C3D is overdue');
    expect(mail.text).toContain(`The balance of 1.000.000,00${nbsp}€ for order 0A1B2C3D was due on 07/12/2026`);
    expect(mail.text).toContain('Reference: RF18 5390 0754 7034');
  });

  it('says when a cancelled reservation keeps its deposit, and when it refunds it', async () => {
    const kept = await renderOrderMail('order_cancelled', { ...data, amountCents: null, balance });
    expect(kept.text).toContain(`Your deposit of 289.000,00${nbsp}€ is not refunded.`);
    const refunded = await renderOrderMail('order_cancelled', { ...data, amountCents: 28_900_000, balance });
    expect(refunded.text).toContain(`289.000,00${nbsp}€ is refunded to your card.`);
    expect(refunded.text).not.toContain('not refunded');
  });

  it('refuses to render the transfer e-mails without the bank details', async () => {
    await expect(renderOrderMail('deposit_received', data)).rejects.toThrow(/bank details/);
  });
});
