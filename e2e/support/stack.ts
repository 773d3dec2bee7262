import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVICE_PORTS, type ServiceName } from '@boatshop/remotes';
import getPort from 'get-port';
import pg from 'pg';

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
  const serverUrl = process.env.E2E_DATABASE_URL;
  if (serverUrl) {
    process.env.BOATSHOP_E2E_STACK_DATABASE_URL = await freshDatabase(serverUrl);
  } else {
    const databaseDir = mkdtempSync(join(tmpdir(), 'boatshop-e2e-pglite-'));
    process.env.PGLITE_DIR = databaseDir;
    // The main process outlives the stack it started; the database goes with it.
    process.on('exit', () => rmSync(databaseDir, { recursive: true, force: true }));
  }
  process.env[PREPARED] = '1';
}

/**
 * With E2E_DATABASE_URL (npm test sets it when PostgreSQL is reachable) the stack's API runs on a
 * new database `<name>_e2e` on that server, dropped and made again by every run, which the API
 * migrates and seeds on its first start as it does an empty PGlite. Journeys on PostgreSQL run
 * faster than on the embedded database, which answers one statement at a time; `npm start` and
 * the version-skew stage keep the embedded one, so a newcomer's path stays covered in a browser.
 */
async function freshDatabase(serverUrl: string): Promise<string> {
  const url = new URL(serverUrl);
  const name = `${decodeURIComponent(url.pathname.slice(1)) || 'postgres'}_e2e`;
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(`drop database if exists ${client.escapeIdentifier(name)} with (force)`);
    await client.query(`create database ${client.escapeIdentifier(name)}`);
  } finally {
    await client.end();
  }
  url.pathname = `/${encodeURIComponent(name)}`;
  return url.toString();
}

export function stackPort(service: ServiceName): number {
  const value = Number(process.env[SERVICE_PORTS[service].env]);
  if (!Number.isInteger(value) || value <= 0)
    throw new Error(`${SERVICE_PORTS[service].env} is not set: run the tests through playwright.config.ts`);
  return value;
}

export const shopUrl = () => `http://localhost:${stackPort('shell')}`;
