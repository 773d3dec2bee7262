import mfGlobals from '../mf-globals.json' with { type: 'json' };

/**
 * One row per remote: every script, server, build and test reads this table, so adding a remote
 * is one row here (plus its folder). Browser-safe: no Node imports.
 */
export const REMOTES = [
  { folder: 'mf-catalog', mfName: 'mf_catalog', port: 3001, portEnv: 'MF_CATALOG_PORT', urlEnv: 'MF_CATALOG_URL', cssPrefix: 'catalog-' },
  {
    folder: 'mf-cart-checkout',
    mfName: 'mf_cart_checkout',
    port: 3002,
    portEnv: 'MF_CART_CHECKOUT_PORT',
    urlEnv: 'MF_CART_CHECKOUT_URL',
    cssPrefix: 'checkout-',
  },
  { folder: 'mf-account', mfName: 'mf_account', port: 3003, portEnv: 'MF_ACCOUNT_PORT', urlEnv: 'MF_ACCOUNT_URL', cssPrefix: 'account-' },
  { folder: 'mf-admin', mfName: 'mf_admin', port: 3004, portEnv: 'MF_ADMIN_PORT', urlEnv: 'MF_ADMIN_URL', cssPrefix: 'admin-' },
] as const;

/** The other services: their port variable and default port. */
const OTHER_SERVICES = {
  shell: { env: 'SHELL_PORT', port: 3000 },
  api: { env: 'API_PORT', port: 4000 },
  'dev-oidc': { env: 'DEV_OIDC_PORT', port: 4010 },
  'dev-stripe': { env: 'DEV_STRIPE_PORT', port: 4020 },
  'dev-smtp': { env: 'DEV_SMTP_PORT', port: 4025 },
  'dev-mailbox': { env: 'DEV_MAILBOX_PORT', port: 4026 },
  'dev-vies': { env: 'DEV_VIES_PORT', port: 4030 },
} as const;

export type Remote = (typeof REMOTES)[number];
/** A remote's folder and package name (`mf-catalog`). */
export type RemoteFolder = Remote['folder'];
/** A remote's Module Federation name (`mf_catalog`). */
export type RemoteMfName = Remote['mfName'];
export type FrontEndName = 'shell' | RemoteFolder;
export type ServiceName = keyof typeof OTHER_SERVICES | RemoteFolder;

export const REMOTE_FOLDERS: readonly RemoteFolder[] = REMOTES.map((remote) => remote.folder);
/** The shell first, then the remotes in the table's order. */
export const FRONT_ENDS: readonly FrontEndName[] = ['shell', ...REMOTE_FOLDERS];

/** Every service's port variable and default port. */
export const SERVICE_PORTS: Readonly<Record<ServiceName, { env: string; port: number }>> = {
  ...OTHER_SERVICES,
  ...Object.fromEntries(REMOTES.map((remote) => [remote.folder, { env: remote.portEnv, port: remote.port }])),
} as Record<ServiceName, { env: string; port: number }>;

export function isRemoteFolder(name: unknown): name is RemoteFolder {
  return typeof name === 'string' && REMOTES.some((remote) => remote.folder === name);
}

/** The row of a remote by folder or MF name; undefined for a name that is not in the table. */
export function findRemote(name: string): Remote | undefined {
  return REMOTES.find((remote) => remote.folder === name || remote.mfName === name);
}

type Env = Record<string, string | undefined>;

/** The service's port: its variable when set (a port number, else this throws), else its default. */
export function portOf(service: ServiceName, env: Env = globalThis.process?.env ?? {}): number {
  const { env: name, port } = SERVICE_PORTS[service];
  const raw = env[name];
  if (raw === undefined || raw === '') return port;
  const parsed = Number(raw);
  if (!Number.isInteger(parsed) || parsed < 1 || parsed > 65_535) {
    throw new Error(`${name}=${raw} is not a port number`);
  }
  return parsed;
}

/**
 * The globals under which the shell's page hands the Module Federation runtime's code to the
 * remotes' builds (which leave it out). `runtimeCore` is the name MF's own externalRuntime reads.
 */
export const MF_GLOBALS: Readonly<typeof mfGlobals> = mfGlobals;
