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
];

export function findDevAccount(id: string): DevAccount | undefined {
  return DEV_ACCOUNTS.find((account) => account.id === id);
}
