// Starting and stopping the bench's API (bench/server.ts) as a child process, and its database.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import getPort from 'get-port';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const TSX_CLI = fileURLToPath(import.meta.resolve('tsx/cli'));
const SERVER = path.join(import.meta.dirname, 'server.ts');

export interface Ready {
  port: number;
  deepCursor: string;
  productId: string;
}

export async function ensureDatabase(url: string): Promise<void> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (!rowCount) await client.query(`create database "${name.replaceAll('"', '""')}"`);
  } finally {
    await client.end();
  }
}

/**
 * What a production start requires (it refuses development defaults), with values for a bench:
 * the measured routes read the catalogue and call no payment or bank service. Production needs
 * PostgreSQL, so the PGlite runs start as development (LOG_LEVEL=warn all the same).
 */
export const PRODUCTION_SETTINGS: NodeJS.ProcessEnv = {
  JWT_SECRET: randomBytes(48).toString('base64'),
  PUBLIC_URL: 'https://bench.invalid',
  STRIPE_SECRET_KEY: 'sk_test_bench',
  STRIPE_PUBLISHABLE_KEY: 'pk_test_bench',
  STRIPE_WEBHOOK_SECRET: 'whsec_bench',
  BANK_ACCOUNT_HOLDER: 'Boat shop bench',
  BANK_IBAN: 'GB82WEST12345698765432',
  BANK_BIC: 'NWBKGB2L',
  SELLER_NAME: 'Boat shop bench GmbH',
  SELLER_ADDRESS: 'Kai 1; 20457 Hamburg',
  SELLER_COUNTRY: 'DE',
  SELLER_VAT_ID: 'DE811569869',
  SELLER_TAX_NUMBER: '22/815/08154',
  SAVED_SEARCH_ALERTS_SECRET: randomBytes(48).toString('base64'),
  // find: the bench uploads nothing, so the bucket is never asked
  S3_BUCKET: 'bench-pictures',
  S3_REGION: 'eu-central-1',
  S3_ACCESS_KEY_ID: 'bench',
  S3_SECRET_ACCESS_KEY: 'bench-secret',
};

export async function startServer(env: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; ready: Ready }> {
  const port = await getPort();
  const child = spawn(process.execPath, [TSX_CLI, SERVER], {
    env: {
      ...process.env,
      ...(env.DATABASE_URL ? { ...PRODUCTION_SETTINGS, NODE_ENV: 'production' } : { NODE_ENV: 'development' }),
      ...env,
      API_PORT: String(port),
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const ready = await new Promise<Ready>((resolve, reject) => {
    let buffer = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const line = buffer.split('\n').find((candidate) => candidate.startsWith('BENCH_READY '));
      if (line) resolve(JSON.parse(line.slice('BENCH_READY '.length)) as Ready);
    });
    child.once('exit', (code) => reject(new Error(`bench server exited with code ${code} before it was ready`)));
  });
  return { child, ready };
}

export async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}
