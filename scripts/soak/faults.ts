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

/** How this machine's Redis was started (the soak restarts it the same way); SOAK_REDIS_START overrides. */
export function redisStartCommand(): string[] {
  const custom = process.env.SOAK_REDIS_START;
  if (custom) return custom.split(' ').filter(Boolean);
  const get = (key: string) => execFileSync('redis-cli', ['config', 'get', key], { encoding: 'utf8' }).trim().split('\n')[1] ?? '';
  const args = ['redis-server', '--port', get('port'), '--bind', get('bind').split(' ')[0]!, '--daemonize', 'yes'];
  for (const key of ['dir', 'logfile', 'pidfile', 'appendonly']) {
    const value = get(key);
    if (value) args.push(`--${key}`, value);
  }
  args.push('--save', get('save'));
  return args;
}

const redisUp = () => spawnSync('redis-cli', ['ping'], { encoding: 'utf8' }).stdout.trim() === 'PONG';

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
  spawnSync('redis-cli', ['shutdown'], { stdio: 'ignore' });
  await waitUntil(() => !redisUp(), 5000);
  await sleep(pauseMs);
  startRedis();
  const back = await waitUntil(redisUp, 20_000);
  redisDown = !back;
  return { kind: 'redis', target: 'redis', at, downMs: back ? Date.now() - at : null };
}

// ---- PostgreSQL -----------------------------------------------------------------------------

const [PG_VERSION, PG_CLUSTER] = (process.env.SOAK_PG_CLUSTER ?? '15/main').split('/');
const postgresUp = () => spawnSync('pg_isready', ['-h', '127.0.0.1', '-q']).status === 0;
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
