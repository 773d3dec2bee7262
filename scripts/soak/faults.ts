// The soak's faults: SIGKILL of a replica (start:cluster restarts it, as an orchestrator would),
// and a restart of Redis and of PostgreSQL. Redis and PostgreSQL are always brought back, also
// when the soak itself is interrupted between stop and start.
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

export type FaultKind = 'api' | 'shell' | 'redis' | 'postgres';
export const ALL_FAULTS: readonly FaultKind[] = ['api', 'shell', 'redis', 'postgres'];

export interface ClusterState {
  url: string;
  pid: number;
  ready: boolean;
  processes: Record<string, { pid: number; port: number | null; startedAt: string }>;
}

export interface FaultRecord {
  kind: FaultKind;
  target: string;
  at: number;
  /** until the target answered again */
  downMs: number | null;
}

export function parseFaults(raw: string | undefined): FaultKind[] {
  if (raw === undefined || raw === '' || raw === 'all') return [...ALL_FAULTS];
  if (raw === 'none') return [];
  const kinds = raw.split(',').map((kind) => kind.trim());
  const unknown = kinds.filter((kind) => !ALL_FAULTS.includes(kind as FaultKind));
  if (unknown.length > 0)
    throw new Error(`SOAK_FAULTS: unknown ${unknown.join(', ')} (use all, none or a list of ${ALL_FAULTS.join(', ')})`);
  return kinds as FaultKind[];
}

export function readState(file: string): ClusterState {
  for (let tries = 0; ; tries++) {
    try {
      return JSON.parse(readFileSync(file, 'utf8')) as ClusterState;
    } catch (error) {
      // A cluster script that writes the file in place may be caught mid-write: read it again.
      if (!(error instanceof SyntaxError) || tries >= 20) throw error;
    }
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitUntil(check: () => Promise<boolean> | boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await sleep(250);
  }
  return false;
}

const answers = (url: string) =>
  fetch(url, { signal: AbortSignal.timeout(2000) }).then(
    async (r) => (await r.arrayBuffer(), r.ok),
    () => false,
  );

/** SIGKILL to one replica; waits until the restarted replica answers on its port. */
export async function killReplica(stateFile: string, name: string): Promise<FaultRecord> {
  const before = readState(stateFile).processes[name];
  if (!before?.port) throw new Error(`${name} is not in ${stateFile}`);
  const at = Date.now();
  process.kill(before.pid, 'SIGKILL');
  const probe = name.startsWith('api') ? `http://127.0.0.1:${before.port}/api/ready` : `http://127.0.0.1:${before.port}/`;
  // The old process may still answer for a moment before it is gone: wait for the new pid first.
  const back = await waitUntil(async () => readState(stateFile).processes[name]?.pid !== before.pid && (await answers(probe)), 180_000);
  return { kind: name.startsWith('api') ? 'api' : 'shell', target: name, at, downMs: back ? Date.now() - at : null };
}

// ---- Redis ----------------------------------------------------------------------------------

/** redis-cli's arguments for the soak's Redis (REDIS_URL): never some other Redis on this machine. */
export function redisCliTarget(url = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379'): string[] {
  const { hostname, port } = new URL(url);
  return ['-h', hostname || '127.0.0.1', '-p', port || '6379'];
}

const redisCli = (...args: string[]) => spawnSync('redis-cli', [...redisCliTarget(), ...args], { encoding: 'utf8' });

/** How the soak's Redis was started (the soak restarts it the same way); SOAK_REDIS_START overrides. */
export function redisStartCommand(): string[] {
  const custom = process.env.SOAK_REDIS_START;
  if (custom) return custom.split(' ').filter(Boolean);
  const get = (key: string) =>
    execFileSync('redis-cli', [...redisCliTarget(), 'config', 'get', key], { encoding: 'utf8' })
      .trim()
      .split('\n')[1] ?? '';
  const args = ['redis-server', '--port', get('port'), '--bind', get('bind').split(' ')[0]!, '--daemonize', 'yes'];
  for (const key of ['dir', 'logfile', 'pidfile', 'appendonly']) {
    const value = get(key);
    if (value) args.push(`--${key}`, value);
  }
  args.push('--save', get('save'));
  return args;
}

const redisUp = () => redisCli('ping').stdout.trim() === 'PONG';

let redisCommand: string[] | null = null;
let redisDown = false;

function startRedis(): void {
  if (!redisCommand || redisUp()) return;
  spawnSync(redisCommand[0]!, redisCommand.slice(1), { stdio: 'ignore' });
}

/** Stops Redis for `pauseMs`, starts it again with its own command line. */
export async function restartRedis(pauseMs: number): Promise<FaultRecord> {
  redisCommand = redisStartCommand();
  const at = Date.now();
  redisDown = true;
  redisCli('shutdown');
  await waitUntil(() => !redisUp(), 5000);
  await sleep(pauseMs);
  startRedis();
  const back = await waitUntil(redisUp, 20_000);
  redisDown = !back;
  return { kind: 'redis', target: 'redis', at, downMs: back ? Date.now() - at : null };
}

// ---- PostgreSQL -----------------------------------------------------------------------------

/** `15/main` or `15 main`: the pg_ctlcluster version and name of the soak's PostgreSQL. */
export function parsePgCluster(raw = '15/main'): [string, string] {
  const [version, name, ...rest] = raw.trim().split(/[/\s]+/);
  if (!version || !name || rest.length > 0) throw new Error(`SOAK_PG_CLUSTER=${raw} must be "<version>/<cluster>", e.g. 15/main`);
  return [version, name];
}

const [PG_VERSION, PG_CLUSTER] = parsePgCluster(process.env.SOAK_PG_CLUSTER);
/** pg_isready on the soak's database (DATABASE_URL's host and port), not whatever answers on 5432. */
export function pgIsReadyTarget(url = process.env.DATABASE_URL ?? 'postgres://127.0.0.1:5432/'): string[] {
  const { hostname, port } = new URL(url);
  return ['-h', hostname || '127.0.0.1', '-p', port || '5432'];
}
const postgresUp = () => spawnSync('pg_isready', [...pgIsReadyTarget(), '-q']).status === 0;

/** The port of `<version> <cluster>` in `pg_lsclusters --no-header` output, or null. */
export function pgClusterPort(lsclusters: string, version: string, cluster: string): number | null {
  for (const line of lsclusters.split('\n')) {
    const [v, name, port] = line.trim().split(/\s+/);
    if (v === version && name === cluster) return Number(port);
  }
  return null;
}

/** Refuses to restart a PostgreSQL cluster other than the one DATABASE_URL names (by its port). */
export function assertPgClusterIsTheDatabase(): void {
  const listed = spawnSync('pg_lsclusters', ['--no-header'], { encoding: 'utf8' }).stdout ?? '';
  const port = pgClusterPort(listed, PG_VERSION, PG_CLUSTER);
  const wanted = Number(pgIsReadyTarget()[3]);
  if (port !== wanted)
    throw new Error(
      `SOAK_PG_CLUSTER=${PG_VERSION}/${PG_CLUSTER} ${port === null ? 'is not a cluster here' : `listens on ${port}`}, but DATABASE_URL is on port ${wanted}: the soak restarts only its own database`,
    );
}
let postgresDown = false;

/** `pg_ctlcluster <version> <cluster> restart`: every connection of every replica is cut. */
export async function restartPostgres(): Promise<FaultRecord> {
  const at = Date.now();
  postgresDown = true;
  spawnSync('pg_ctlcluster', [PG_VERSION!, PG_CLUSTER!, 'restart', '-m', 'fast'], { stdio: 'ignore' });
  const back = await waitUntil(postgresUp, 60_000);
  postgresDown = !back;
  return { kind: 'postgres', target: `postgresql ${PG_VERSION}/${PG_CLUSTER}`, at, downMs: back ? Date.now() - at : null };
}

/** Brings back whatever this process stopped: called on every way out. */
export function restoreServices(): void {
  if (redisDown) startRedis();
  if (postgresDown && !postgresUp()) spawnSync('pg_ctlcluster', [PG_VERSION!, PG_CLUSTER!, 'start'], { stdio: 'ignore' });
  redisDown = false;
  postgresDown = false;
}
