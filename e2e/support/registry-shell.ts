import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { FileRegistryStore, promote, publishRelease, readSingletons } from '@boatshop/release-registry';
import type { RemoteFolder } from '@boatshop/remotes';
import getPort from 'get-port';
import { REPO_ROOT, stackPort } from './stack';

/** A test's own shell server, reading a test's release registry; the rest of the stack is the journeys' own. */
export interface RegistryShell {
  origin: string;
  /** The shell's process, to tell whether it is still running. */
  process: ChildProcess;
  stop(): Promise<void>;
}

/**
 * Starts this commit's built shell (shell/dist) on a free port, on the journeys' API, following the
 * registry folder `registry` (re-read on every request: REMOTES_REGISTRY_TTL_MS=0), and waits until
 * it answers /remotes.json. `env` adds or overrides settings (REMOTES_ENV, rate limits…).
 */
export async function startRegistryShell(registry: string, env: Record<string, string> = {}): Promise<RegistryShell> {
  const port = await getPort();
  const origin = `http://localhost:${port}`;
  const child = spawn(
    join(REPO_ROOT, 'node_modules/.bin/tsx'),
    [join(REPO_ROOT, 'e2e/support/serve-front-end.ts'), 'shell', join(REPO_ROOT, 'shell/dist')],
    {
      cwd: REPO_ROOT,
      env: {
        ...process.env,
        SHELL_PORT: String(port),
        PUBLIC_URL: origin,
        API_URL: `http://127.0.0.1:${stackPort('api')}`,
        REMOTES_REGISTRY: registry,
        REMOTES_REGISTRY_TTL_MS: '0',
        ...env,
      },
      detached: true,
      stdio: 'ignore',
    },
  );
  const stop = async () => {
    if (!child.pid || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    process.kill(-child.pid, 'SIGTERM');
    await exited;
  };
  const deadline = Date.now() + 30_000;
  while (
    !(await fetch(`${origin}/remotes.json`).then(
      (r) => r.ok,
      () => false,
    ))
  ) {
    if (Date.now() > deadline || child.exitCode !== null) {
      await stop();
      throw new Error('the registry shell did not start');
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { origin, process: child, stop };
}

/**
 * Publishes the stack's build of `remote` (its dist/) to the registry folder `registry` as
 * `version` and makes it the live release of `environment`, checked against this commit's shell:
 * for a journey's own shell, which serves that remote from the registry.
 */
export async function releaseStackBuild(
  registry: string,
  remote: RemoteFolder,
  { version = '0.1.0', environment = 'production' }: { version?: string; environment?: string } = {},
): Promise<void> {
  const store = new FileRegistryStore(registry);
  await publishRelease(store, {
    remote,
    distDir: join(REPO_ROOT, remote, 'dist'),
    version,
    commit: null,
    builtAt: new Date().toISOString(),
    singletons: readSingletons(join(REPO_ROOT, remote)),
  });
  await promote(store, { environment, remote, version, shellSingletons: readSingletons(join(REPO_ROOT, 'shell')) });
}
