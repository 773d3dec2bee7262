#!/usr/bin/env node
// npm start: the whole shop on one machine. Checks every port first, builds the five front
// ends, starts the offline dev services, the API and the five front-end servers, waits until
// each answers, prints where the shop is, and on Ctrl-C stops everything it started.
//
// Ports: the table of @boatshop/remotes, each overridable by its env variable.
// --no-build (or SKIP_BUILD=1) serves the dist folders as they are.
// Run with tsx (`node --import tsx scripts/start.mjs`): the table and the demo logins are TypeScript.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import net from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FRONT_ENDS, SERVICE_PORTS, portOf } from '@boatshop/remotes';
import { DEMO_ACCOUNTS } from '../api/src/db/seed/demo-accounts.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const PORTS = SERVICE_PORTS;

const skipBuild = process.argv.includes('--no-build') || process.env.SKIP_BUILD === '1';

function fail(message) {
  console.error(`\nnpm start: ${message}`);
  process.exit(1);
}

let port;
try {
  port = Object.fromEntries(Object.keys(PORTS).map((service) => [service, portOf(service)]));
} catch (error) {
  fail(error.message);
}
const shopUrl = `http://localhost:${port.shell}`;
const devServicesPackage = JSON.parse(readFileSync(join(ROOT, 'dev-services/package.json'), 'utf8'));
// The stand-ins refuse NODE_ENV=production (dev-services/src/production-guard.ts): a production
// run must name the real services, so it starts without them.
const withDevServices = Boolean(devServicesPackage.scripts?.start) && process.env.NODE_ENV !== 'production';
if (!withDevServices && process.env.NODE_ENV === 'production') {
  console.log('NODE_ENV=production: the dev services (stand-ins for Google, SMTP and Stripe) are not started.');
}

// Every child sees every port, so the API finds the dev services and the shell finds the API
// and the remotes however the ports were moved.
const childEnv = {
  ...process.env,
  ...Object.fromEntries(Object.entries(PORTS).map(([service, { env }]) => [env, String(port[service])])),
  PUBLIC_URL: process.env.PUBLIC_URL || shopUrl,
  API_URL: process.env.API_URL || `http://127.0.0.1:${port.api}`,
  SHELL_ORIGIN: process.env.SHELL_ORIGIN || `${shopUrl},http://127.0.0.1:${port.shell}`,
  DEV_OIDC_REDIRECT_URIS: process.env.DEV_OIDC_REDIRECT_URIS || `${shopUrl}/api/auth/oidc/callback`,
  DEV_STRIPE_WEBHOOK_URL: process.env.DEV_STRIPE_WEBHOOK_URL || `http://127.0.0.1:${port.api}/api/payments/webhook`,
  // The release registry (README "Shipping a remote"), made absolute: each app runs in its own folder.
  ...(process.env.REMOTES_REGISTRY ? { REMOTES_REGISTRY: resolve(process.env.REMOTES_REGISTRY) } : {}),
};

/** Resolves when nothing listens on the port (on any loopback address). */
function ensurePortFree(service) {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', (error) => {
      const { env } = PORTS[service];
      reject(
        error.code === 'EADDRINUSE'
          ? new Error(`port ${port[service]} (${service}) is already in use. Stop whatever runs there or set ${env} to a free port.`)
          : error,
      );
    });
    server.listen({ port: port[service], host: '127.0.0.1', exclusive: true }, () => server.close(() => resolve()));
  });
}

const services = [...(withDevServices ? ['dev-oidc', 'dev-stripe', 'dev-smtp', 'dev-mailbox'] : []), 'api', ...FRONT_ENDS];
try {
  await Promise.all(services.map(ensurePortFree));
} catch (error) {
  fail(error.message);
}

if (!skipBuild) {
  console.log(`Building the ${FRONT_ENDS.length} front ends…`);
  const started = Date.now();
  const build = spawnSync('npm', ['run', 'build', ...FRONT_ENDS.flatMap((app) => ['-w', app])], {
    cwd: ROOT,
    env: { ...childEnv, NODE_ENV: 'production' },
    encoding: 'utf8',
  });
  if (build.status !== 0) {
    console.error(build.stdout, build.stderr);
    fail('the build failed (output above).');
  }
  console.log(`Built in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
} else {
  const missing = FRONT_ENDS.filter((app) => !existsSync(join(ROOT, app, 'dist/index.html')));
  if (missing.length) fail(`--no-build, but ${missing.join(', ')} has no dist: run npm run build first.`);
}

/** @type {Map<string, import('node:child_process').ChildProcess>} */
const children = new Map();
/** The last lines each service printed, shown when it fails to start. */
const tails = new Map();
let stopping = false;

function start(name, workspace) {
  // detached: each service leads its own process group, so stopping it reaches npm, sh and node.
  const child = spawn('npm', ['run', 'start', '--silent', '-w', workspace], {
    cwd: ROOT,
    env: childEnv,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const tail = [];
  tails.set(name, tail);
  const relay = (stream, target) => {
    let partial = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk) => {
      const lines = (partial + chunk).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) {
        if (!line.trim() || line.includes('Unknown user config')) continue;
        tail.push(line);
        if (tail.length > 40) tail.shift();
        target.write(`[${name}] ${line}\n`);
      }
    });
  };
  relay(child.stdout, process.stdout);
  relay(child.stderr, process.stderr);
  child.on('exit', (code, signal) => {
    children.delete(name);
    if (stopping) return;
    // The shop is built to survive a missing remote, so one service stopping stops nothing else.
    console.error(`[${name}] stopped (${signal ?? `exit code ${code}`}). The other services keep running.`);
  });
  children.set(name, child);
  return child;
}

function signalGroup(child, signal) {
  try {
    process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

async function stopAll(exitCode) {
  if (stopping) return;
  stopping = true;
  const running = [...children.values()];
  const exited = running.map((child) => new Promise((resolve) => child.once('exit', resolve)));
  for (const child of running) signalGroup(child, 'SIGTERM');
  const timeout = new Promise((resolve) => setTimeout(resolve, 5000, 'timeout'));
  if ((await Promise.race([Promise.all(exited), timeout])) === 'timeout') {
    for (const child of children.values()) signalGroup(child, 'SIGKILL');
  }
  process.exit(exitCode);
}

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => void stopAll(0));

/** Resolves once url answers at all (any HTTP status), or the TCP port accepts (for SMTP). */
async function waitUntilUp(name, check, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const child = children.get(name);
    if (!child) throw new Error(`${name} exited while starting`);
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${name} did not answer within ${timeoutMs / 1000} s`);
}

const answersHttp = (url) => () =>
  fetch(url, { signal: AbortSignal.timeout(2000) }).then(
    (response) => response.status < 500,
    () => false,
  );
const acceptsTcp = (tcpPort) => () =>
  new Promise((resolve) => {
    const socket = net.connect({ port: tcpPort, host: '127.0.0.1' }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });

try {
  if (withDevServices) {
    start('dev-services', 'dev-services');
    await waitUntilUp('dev-services', acceptsTcp(port['dev-smtp']), 60_000);
    await waitUntilUp('dev-services', answersHttp(`http://localhost:${port['dev-oidc']}/.well-known/openid-configuration`), 60_000);
  }
  start('api', 'api');
  // A fresh embedded database is created, migrated and seeded on the API's first start.
  const apiUp = waitUntilUp('api', answersHttp(`http://127.0.0.1:${port.api}/api/health`), 180_000);
  // The remotes first: the shell's server reads their route data as it starts.
  const remotes = FRONT_ENDS.filter((app) => app !== 'shell');
  for (const app of remotes) start(app, app);
  await Promise.all(remotes.map((app) => waitUntilUp(app, answersHttp(`http://localhost:${port[app]}/`), 60_000)));
  start('shell', 'shell');
  await Promise.all([waitUntilUp('shell', answersHttp(`http://localhost:${port.shell}/`), 60_000), apiUp]);
} catch (error) {
  console.error(`\nnpm start: ${error.message}`);
  const failed = [...tails.keys()].find((name) => error.message.startsWith(name));
  if (failed) console.error(`Last output of ${failed}:\n${tails.get(failed)?.join('\n')}`);
  await stopAll(1);
}

console.log(`
  The boat shop is running at ${shopUrl}

  Demo logins:
${Object.entries(DEMO_ACCOUNTS)
  .map(([role, { email, password }]) => `    ${role.padEnd(11)} ${email} / ${password}`)
  .join('\n')}
${withDevServices ? `\n  Dev mailbox (password-reset e-mails): http://localhost:${port['dev-mailbox']}\n` : ''}
  Press Ctrl-C to stop.
`);
