/**
 * The demo accounts the API seeds on an empty development database, printed by `npm start` and
 * used by the browser tests. Demo data only: production refuses SEED_DEMO_DATA.
 */
export const DEMO_ACCOUNTS = {
  shopper: { email: 'shopper@example.com', password: 'boats-ahoy-2024', displayName: 'Sandy Shopper', roles: ['user'] },
  admin: { email: 'admin@example.com', password: 'admin-ahoy-2024', displayName: 'Ada Admin', roles: ['user', 'owner'] },
  sales: { email: 'sales@example.com', password: 'sales-ahoy-2024', displayName: 'Sam Sales', roles: ['user', 'sales'] },
  accountant: {
    email: 'accountant@example.com',
    password: 'ledger-ahoy-2024',
    displayName: 'Alex Accountant',
    roles: ['user', 'accountant'],
  },
  editor: { email: 'editor@example.com', password: 'editor-ahoy-2024', displayName: 'Eddie Editor', roles: ['user', 'editor'] },
} as const;

export type DemoRole = keyof typeof DEMO_ACCOUNTS;
