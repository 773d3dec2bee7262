#!/usr/bin/env node
// npm run start:cluster: the shop as several replicas on this machine, behind nginx with the
// deployment's own proxy configuration (deploy/proxy.conf, see scripts/cluster/nginx.mjs).
// CLUSTER_API_REPLICAS and CLUSTER_SHELL_REPLICAS (default 2 each) API and shell processes share
// one PostgreSQL (DATABASE_URL, required: PGlite is one process's database) and one Redis
// (REDIS_URL, required: shared rate limits), plus the four remotes and the dev services. Prints
// one URL (CLUSTER_PORT, default 8080) and stops everything it started on Ctrl-C.
// Front ends and servers must be built (npm run build): the API and shell replicas run their
// built JavaScript (scripts/cluster/built.mjs), as the images do. Ports: API replicas from
// CLUSTER_API_PORT_BASE (4100), shell replicas from CLUSTER_SHELL_PORT_BASE (3100), the rest as
// npm start (the table in packages/remotes).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVICE_PORTS } from '@boatshop/remotes';
import { builtServers, staleBuild } from './cluster/built.mjs';
import { REMOTES, writeClusterNginxConfig } from './cluster/nginx.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const PORTS = SERVICE_PORTS;
const NGINX = process.env.NGINX_BIN || '/usr/sbin/nginx';

function fail(message) {
  console.error(`\nnpm run start:cluster: ${message}`);
  process.exit(1);
}
function intFromEnv(name, fallback, min = 1, max = 65_535) {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) fail(`${name}=${raw} must be a whole number from ${min} to ${max}`);
  return value;
}
const portOf = (service) => intFromEnv(PORTS[service].env, PORTS[service].port);

const apiReplicas = intFromEnv('CLUSTER_API_REPLICAS', 2, 1, 16);
const shellReplicas = intFromEnv('CLUSTER_SHELL_REPLICAS', 2, 1, 16);
const listenPort = intFromEnv('CLUSTER_PORT', 8080);
const apiPorts = Array.from({ length: apiReplicas }, (_, i) => intFromEnv('CLUSTER_API_PORT_BASE', 4100) + i + 1);
const shellPorts = Array.from({ length: shellReplicas }, (_, i) => intFromEnv('CLUSTER_SHELL_PORT_BASE', 3100) + i + 1);
const remotePorts = Object.fromEntries(REMOTES.map((remote) => [remote, portOf(remote)]));
const shopUrl = `http://127.0.0.1:${listenPort}`;

if (!process.env.DATABASE_URL?.startsWith('postgres')) fail('DATABASE_URL must name a PostgreSQL database: every replica shares it.');
if (!process.env.REDIS_URL) fail('REDIS_URL must name a Redis: the replicas share their rate limits there.');
if (!existsSync(NGINX)) fail(`nginx not found at ${NGINX} (apt-get install -y nginx, or set NGINX_BIN)`);
for (const app of ['shell', ...REMOTES])
  if (!existsSync(join(ROOT, app, 'dist', 'index.html'))) fail(`${app} has no dist: run npm run build first.`);
const SERVERS = builtServers(ROOT);
for (const server of Object.values(SERVERS)) {
  const stale = staleBuild(server);
  if (stale) fail(stale);
}

const workDir = mkdtempSync(join(tmpdir(), 'boatshop-cluster-'));
const nginxConf = writeClusterNginxConfig({ workDir, listenPort, apiPorts, shellPorts, remotePorts });
const tested = spawnSync(NGINX, ['-t', '-q', '-c', nginxConf, '-e', join(workDir, 'logs', 'error.log')], { encoding: 'utf8' });
if (tested.status !== 0) fail(`nginx -t refused ${nginxConf}:\n${tested.stderr}`);

const baseEnv = {
  ...process.env,
  ...Object.fromEntries(Object.entries(PORTS).map(([service, { env }]) => [env, String(portOf(service))])),
  PUBLIC_URL: process.env.PUBLIC_URL || shopUrl,
  // The replicas believe X-Forwarded-For from nginx on loopback only.
  TRUST_PROXY: process.env.TRUST_PROXY || '127.0.0.1',
  SHELL_ORIGIN: process.env.SHELL_ORIGIN || shopUrl,
  // The browser fetches the remotes through nginx, like the deployment.
  ...Object.fromEntries(REMOTES.map((remote) => [`${remote.toUpperCase().replaceAll('-', '_')}_URL`, `${shopUrl}/remotes/${remote}`])),
  DEV_OIDC_REDIRECT_URIS: process.env.DEV_OIDC_REDIRECT_URIS || `${shopUrl}/api/auth/oidc/callback`,
  // Webhooks go through the balancer: whichever replica answers handles them.
  DEV_STRIPE_WEBHOOK_URL: process.env.DEV_STRIPE_WEBHOOK_URL || `${shopUrl}/api/payments/webhook`,
  // One line per request from every replica drowns the terminal; warnings and errors stay.
  LOG_LEVEL: process.env.LOG_LEVEL || 'warn',
};

const children = new Map();
let stopping = false;
let nginxStarted = false;
// An orchestrator restarts a replica that dies; so does this script (CLUSTER_RESTART=false: not).
const restartDead = process.env.CLUSTER_RESTART !== 'false';
const RESTART_DELAY_MS = 1000;
// Who runs where, for tools that drive the cluster (npm run soak kills replicas by pid).
const stateFile = process.env.CLUSTER_STATE_FILE || join(workDir, 'cluster.json');
const processes = {};

let ready = false;
function writeState() {
  // Written aside and renamed: a reader never sees half a file.
  writeFileSync(`${stateFile}.tmp`, `${JSON.stringify({ url: shopUrl, nginxConf, pid: process.pid, ready, processes }, null, 2)}\n`);
  renameSync(`${stateFile}.tmp`, stateFile);
}

/** Node itself runs each server (`args`), so a signal reaches the server, not a wrapper. */
export function startProcess(name, cwd, args, env, port = null) {
  const child = spawn(process.execPath, args, {
    cwd: join(ROOT, cwd),
    env: { ...baseEnv, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  for (const stream of [child.stdout, child.stderr]) {
    stream.setEncoding('utf8');
    stream.on('data', (chunk) => {
      for (const line of chunk.split('\n')) if (line.trim() && !line.includes('"level":30')) process.stderr.write(`[${name}] ${line}\n`);
    });
  }
  child.on('exit', (code, signal) => {
    children.delete(name);
    if (stopping) return;
    const again = restartDead && name !== 'dev-services';
    console.error(
      `[${name}] stopped (${signal ?? `exit code ${code}`}); the other replicas keep serving${again ? '; restarting it' : ''}.`,
    );
    if (again) setTimeout(() => stopping || startProcess(name, cwd, args, env, port), RESTART_DELAY_MS);
  });
  children.set(name, child);
  processes[name] = { pid: child.pid, port, startedAt: new Date().toISOString() };
  writeState();
  return child;
}

async function waitFor(url, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    // The body is read to its end: a probe that walks away mid-answer is logged as an error.
    const ok = await fetch(url, { signal: AbortSignal.timeout(5000) }).then(
      async (r) => (await r.arrayBuffer(), r.status < 500),
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`${url} did not answer within ${timeoutMs / 1000} s`);
}

async function stopAll(code) {
  if (stopping) return;
  stopping = true;
  if (nginxStarted) spawnSync(NGINX, ['-c', nginxConf, '-e', join(workDir, 'logs', 'error.log'), '-s', 'quit']);
  const running = [...children.values()];
  const exited = running.map((child) => new Promise((resolve) => child.once('exit', resolve)));
  for (const child of running) child.kill('SIGTERM');
  await Promise.race([Promise.all(exited), new Promise((resolve) => setTimeout(resolve, 15_000))]);
  for (const child of children.values()) child.kill('SIGKILL');
  process.exit(code);
}
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => void stopAll(0));

try {
  if (process.env.NODE_ENV !== 'production') {
    // The stand-ins and the remotes' servers are not replicas: they run their TypeScript through tsx.
    startProcess('dev-services', 'dev-services', ['--import', 'tsx', 'src/start-all.ts'], {});
  }
  // The first replica migrates; the others start once it is ready (the migrator's lock would
  // serialise them anyway, this only keeps the log readable).
  apiPorts.forEach((port, i) => {
    const start = () =>
      startProcess(
        `api-${i + 1}`,
        SERVERS.api.cwd,
        SERVERS.api.args,
        {
          API_PORT: String(port),
          SEED_DEMO_DATA: i === 0 ? (process.env.SEED_DEMO_DATA ?? 'true') : 'false',
        },
        port,
      );
    if (i === 0) start();
  });
  await waitFor(`http://127.0.0.1:${apiPorts[0]}/api/ready`, 240_000);
  apiPorts
    .slice(1)
    .forEach((port, i) =>
      startProcess(`api-${i + 2}`, SERVERS.api.cwd, SERVERS.api.args, { API_PORT: String(port), SEED_DEMO_DATA: 'false' }, port),
    );
  // nginx before the shells: a shell renders its pages with data read through the one URL.
  const nginx = spawnSync(NGINX, ['-c', nginxConf, '-e', join(workDir, 'logs', 'error.log')], { encoding: 'utf8' });
  if (nginx.status !== 0) throw new Error(`nginx did not start: ${nginx.stderr}`);
  nginxStarted = true;
  for (const remote of REMOTES) startProcess(remote, remote, ['--import', 'tsx', 'serve.ts'], {}, remotePorts[remote]);
  shellPorts.forEach((port, i) =>
    startProcess(
      `shell-${i + 1}`,
      SERVERS.shell.cwd,
      SERVERS.shell.args,
      {
        SHELL_PORT: String(port),
        API_URL: shopUrl,
        REMOTES_REPLICA_ID: `shell-${i + 1}`,
      },
      port,
    ),
  );
  await Promise.all([
    ...apiPorts.map((port) => waitFor(`http://127.0.0.1:${port}/api/ready`, 240_000)),
    ...shellPorts.map((port) => waitFor(`http://127.0.0.1:${port}/`, 120_000)),
    ...REMOTES.map((remote) => waitFor(`http://127.0.0.1:${remotePorts[remote]}/`, 120_000)),
  ]);
  await waitFor(`${shopUrl}/api/ready`, 30_000);
  ready = true;
  writeState();
} catch (error) {
  console.error(`\nnpm run start:cluster: ${error.message}`);
  await stopAll(1);
}

console.log(`
  The boat shop runs at ${shopUrl}
  (${apiReplicas} API replicas on ${apiPorts.join(', ')}, ${shellReplicas} shell replicas on ${shellPorts.join(', ')}, nginx config ${nginxConf},
  processes in ${stateFile}; a replica that dies is restarted${restartDead ? '' : ' (not: CLUSTER_RESTART=false)'})
  Press Ctrl-C to stop.
`);
