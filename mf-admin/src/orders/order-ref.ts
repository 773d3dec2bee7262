/** The short reference admins read and search by: an order id's first 8 characters (the API's `q` accepts it). */
export function orderRef(id: string): string {
  return id.slice(0, 8);
}
