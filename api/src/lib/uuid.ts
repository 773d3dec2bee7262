const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Lets a route answer 404 for a malformed id instead of letting PostgreSQL fail the uuid cast. */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}
