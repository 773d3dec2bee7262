import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVICE_PORTS, type ServiceName } from '@boatshop/remotes';
import getPort from 'get-port';

export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export { SERVICE_PORTS };

/** Marks the environment as prepared, so Playwright's workers reuse what the main process chose. */
const PREPARED = 'BOATSHOP_E2E_PREPARED';

/**
 * Runs once, in Playwright's main process (the config is evaluated again in every worker, which
 * inherits this environment): free ports for every service, and a fresh embedded database, so
 * the suite never meets a developer's running shop or data.
 */
export async function prepareStackEnv(): Promise<void> {
  if (process.env[PREPARED]) return;
  for (const { env } of Object.values(SERVICE_PORTS)) process.env[env] = String(await getPort());
  // The ports of the tests' own remote instances (support/remote-server.ts), chosen now so the
  // shell's Content-Security-Policy can allow them (CSP_EXTRA_ORIGINS), as a deployment that
  // moves a remote lists its new origin.
  const remotePorts = [await getPort(), await getPort(), await getPort()];
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
