import type { Page } from '@playwright/test';

export interface JourneyAddress {
  name: string;
  street: string;
  city: string;
  postalCode: string;
  country: string;
  /** the region list's choice: a label, or the first real entry */
  county: { label: string } | { index: number };
}

export const IRISH_ADDRESS: JourneyAddress = {
  name: 'Sandy Shopper',
  street: '1 Harbour Road',
  city: 'Cork',
  postalCode: 'T12 X2Y3',
  country: 'IE',
  county: { label: 'Cork' },
};

/** Both address groups of the payment page, by default with a valid Irish address. */
export async function fillAddresses(page: Page, address: JourneyAddress = IRISH_ADDRESS): Promise<void> {
  for (const [group, nameLabel] of [
    ['Shipping address', 'Recipient name'],
    ['Billing address', 'Card owner name'],
  ] as const) {
    const fields = page.getByRole('group', { name: group });
    await fields.getByLabel(nameLabel).fill(address.name);
    await fields.getByLabel('Street').fill(address.street);
    await fields.getByLabel('City').fill(address.city);
    await fields.getByLabel('Postal code').fill(address.postalCode);
    await fields.getByLabel('Country').selectOption(address.country);
    await fields.getByLabel('County').selectOption(address.county);
  }
}

/** The local card form's card details, with an expiry date in the future. */
export async function fillCard(page: Page, number: string): Promise<void> {
  const card = page.getByRole('group', { name: 'Card details' });
  await card.getByLabel('Card number').fill(number);
  await card.getByLabel('Expiry date (MM/YY)').fill('12/34');
  await card.getByLabel('CVC').fill('123');
}
