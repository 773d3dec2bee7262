/** The people one can sign in as on the local OpenID provider. */
export interface DevAccount {
  /** The stable `sub` claim. */
  id: string;
  name: string;
  email: string;
  emailVerified: boolean;
}

export const DEV_ACCOUNTS: readonly DevAccount[] = [
  { id: 'grace-sailor', name: 'Grace Sailor', email: 'grace.sailor@example.com', emailVerified: true },
  { id: 'sam-skipper', name: 'Sam Skipper', email: 'sam.skipper@example.com', emailVerified: true },
  // A provider that has not checked the address: the shop must not trust it to open an account.
  { id: 'una-unverified', name: 'Una Unverified', email: 'una.unverified@example.com', emailVerified: false },
];

export function findDevAccount(id: string): DevAccount | undefined {
  return DEV_ACCOUNTS.find((account) => account.id === id);
}
