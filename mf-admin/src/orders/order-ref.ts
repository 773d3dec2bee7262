/**
 * The short reference admins read and search by: an order id's first 8 characters, in capitals
 * as the shop's e-mails print it, so the reference a customer quotes is the one on the screen
 * (the API's `q` takes it in either case).
 */
export function orderRef(id: string): string {
  return id.slice(0, 8).toUpperCase();
}
