const euro = new Intl.NumberFormat('de-DE', { style: 'currency', currency: 'EUR' });

/** Euros as the shop's pages show them: `20.000,00 €`, for messages and e-mails. */
export const formatEuro = (cents: bigint | number) => euro.format(Number(cents) / 100);

/** DD/MM/YYYY, as on the pages, in the shop's time zone (UTC). */
export function formatDate(date: Date): string {
  const dd = String(date.getUTCDate()).padStart(2, '0');
  const mm = String(date.getUTCMonth() + 1).padStart(2, '0');
  return `${dd}/${mm}/${date.getUTCFullYear()}`;
}
