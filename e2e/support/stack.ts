import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

type ServiceName =
  'shell' | 'mf-catalog' | 'mf-cart-checkout' | 'mf-account' | 'mf-admin' | 'api' | 'dev-oidc' | 'dev-stripe' | 'dev-smtp' | 'dev-mailbox';

/** The port table of docs/ARCHITECTURE.md: service → env variable and default. */
export const SERVICE_PORTS: Record<ServiceName, { env: string; port: number }> = JSON.parse(
  readFileSync(join(REPO_ROOT, 'packages/web-server/ports.json'), 'utf8'),
);

/** Marks the environment as prepared, so Playwright's workers reuse what the main process chose. */
const PREPARED = 'BOATSHOP_E2E_PREPARED';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/**
 * Runs once, in Playwright's main process (the config is evaluated again in every worker, which
 * inherits this environment): free ports for every service, and a fresh embedded database, so
 * the suite never meets a developer's running shop or data.
 */
export async function prepareStackEnv(): Promise<void> {
  if (process.env[PREPARED]) return;
  for (const { env } of Object.values(SERVICE_PORTS)) process.env[env] = String(await freePort());
  // The ports of the tests' own remote instances (support/remote-server.ts), chosen now so the
  // shell's Content-Security-Policy can allow them (CSP_EXTRA_ORIGINS), as a deployment that
  // moves a remote lists its new origin.
  const remotePorts = [await freePort(), await freePort(), await freePort()];
  process.env.BOATSHOP_E2E_REMOTE_PORTS = remotePorts.join(',');
  process.env.CSP_EXTRA_ORIGINS = remotePorts.map((port) => `http://localhost:${port}`).join(',');
  const databaseDir = mkdtempSync(join(tmpdir(), 'boatshop-e2e-pglite-'));
  process.env.PGLITE_DIR = databaseDir;
  process.env[PREPARED] = '1';
  // The main process outlives the stack it started; the database goes with it.
  process.on('exit', () => rmSync(databaseDir, { recursive: true, force: true }));
}

export function stackPort(service: ServiceName): number {
  const value = Number(process.env[SERVICE_PORTS[service].env]);
  if (!Number.isInteger(value) || value <= 0)
    throw new Error(`${SERVICE_PORTS[service].env} is not set: run the tests through playwright.config.ts`);
  return value;
}

export const shopUrl = () => `http://localhost:${stackPort('shell')}`;
