// The replicas of npm run start:cluster run the servers' built JavaScript, as the production images
// do: `node --conditions=compiled api/dist/server.js` (tsc, npm run build -w api) and
// `node shell/server/dist/serve.js` (esbuild, npm run build -w shell). Nothing is compiled when a
// replica starts, so one that was killed serves again in seconds. A build older than the sources
// it was made from is refused: the cluster would run code nobody is looking at.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The newest modification time (ms) of the files under `dir`, tests and built folders left out. */
export function newestSource(dir) {
  if (!existsSync(dir)) return 0;
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name === 'test') continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (!/\.test\.tsx?$/.test(entry.name)) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

/** What each replica kind runs, and what its build is made from. */
export function builtServers(root) {
  const contract = join(root, 'packages', 'contract', 'src');
  const packages = ['web-server', 'release-registry', 'web-shared', 'remotes', 'state'].map((p) => join(root, 'packages', p, 'src'));
  return {
    api: {
      cwd: 'api',
      args: ['--conditions=compiled', 'dist/server.js'],
      outputs: [join(root, 'api', 'dist', 'server.js'), join(root, 'packages', 'contract', 'dist', 'index.js')],
      sources: [join(root, 'api', 'src'), contract],
      build: 'npm run build -w @boatshop/contract -w api',
    },
    shell: {
      cwd: 'shell',
      args: ['server/dist/serve.js'],
      outputs: [join(root, 'shell', 'server', 'dist', 'serve.js')],
      sources: [join(root, 'shell', 'serve.ts'), contract, ...packages],
      build: 'npm run build:server -w shell',
    },
  };
}

/** Why `server` cannot run as built (missing or older than its sources), or null when it can. */
export function staleBuild(server) {
  const sourceTime = Math.max(
    ...server.sources.map((source) =>
      statSync(source, { throwIfNoEntry: false })?.isFile() ? statSync(source).mtimeMs : newestSource(source),
    ),
  );
  for (const output of server.outputs) {
    const built = statSync(output, { throwIfNoEntry: false });
    if (!built) return `${output} is missing: run ${server.build}`;
    if (built.mtimeMs < sourceTime) return `${output} is older than its sources: run ${server.build}`;
  }
  return null;
}
