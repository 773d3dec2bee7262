import type { Page } from '@playwright/test';

/** Both address groups of the payment page, with a valid Irish address. */
export async function fillAddresses(page: Page): Promise<void> {
  for (const [group, nameLabel] of [
    ['Shipping address', 'Recipient name'],
    ['Billing address', 'Card owner name'],
  ] as const) {
    const fields = page.getByRole('group', { name: group });
    await fields.getByLabel(nameLabel).fill('Sandy Shopper');
    await fields.getByLabel('Street').fill('1 Harbour Road');
    await fields.getByLabel('City').fill('Cork');
    await fields.getByLabel('Postal code').fill('T12 X2Y3');
    await fields.getByLabel('Country').selectOption('IE');
    await fields.getByLabel('County').selectOption({ label: 'Cork' });
  }
}

/** The local card form's card details, with an expiry date in the future. */
export async function fillCard(page: Page, number: string): Promise<void> {
  const card = page.getByRole('group', { name: 'Card details' });
  await card.getByLabel('Card number').fill(number);
  await card.getByLabel('Expiry date (MM/YY)').fill('12/34');
  await card.getByLabel('CVC').fill('123');
}
