import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { REPO_ROOT, SERVICE_PORTS, freePort, shopUrl } from './stack';

export type RemoteApp = 'mf-catalog' | 'mf-cart-checkout' | 'mf-account' | 'mf-admin';

/**
 * A test's own instance of one remote's production server, on a port of its own, which the
 * test may stop and start again without disturbing the shared stack other tests use.
 */
export class RemoteServer {
  private child: ChildProcess | null = null;

  private constructor(
    readonly app: RemoteApp,
    readonly distDir: string,
    readonly port: number,
  ) {}

  static async create(app: RemoteApp, distDir = join(REPO_ROOT, app, 'dist')): Promise<RemoteServer> {
    return new RemoteServer(app, distDir, await freePort());
  }

  get origin(): string {
    return `http://localhost:${this.port}`;
  }

  async start(): Promise<void> {
    if (this.child) return;
    const output: string[] = [];
    const child = spawn(join(REPO_ROOT, 'node_modules/.bin/tsx'), [join(REPO_ROOT, 'e2e/support/serve-front-end.ts'), this.app, this.distDir], {
      cwd: REPO_ROOT,
      env: { ...process.env, [SERVICE_PORTS[this.app].env]: String(this.port), SHELL_ORIGIN: shopUrl() },
      // Its own process group: stop() reaches tsx and the node process it starts.
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    this.child = child;
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      if (child.exitCode !== null) break;
      const up = await fetch(`${this.origin}/mf-manifest.json`).then(
        (response) => response.ok,
        () => false,
      );
      if (up) return;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    await this.stop();
    throw new Error(`${this.app} did not start on port ${this.port}:\n${output.join('')}`);
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (!child?.pid) return;
    this.child = null;
    if (child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    process.kill(-child.pid, 'SIGTERM');
    await exited;
  }
}

/**
 * Points the page's shell at the given remote server, as a deployment would by editing the
 * remotes manifest: the shell itself is the shared, running one.
 */
export async function useRemoteServer(page: Page, mfName: string, server: RemoteServer): Promise<void> {
  await page.route('**/remotes.json', async (route) => {
    const response = await route.fetch();
    const manifest = (await response.json()) as Record<string, string>;
    await route.fulfill({ response, json: { ...manifest, [mfName]: `${server.origin}/mf-manifest.json` } });
  });
  // The shell's server builds its Content-Security-Policy from the same manifest; a deployment
  // that moved the remote would list the new origin there too.
  await page.route('**/*', async (route) => {
    if (route.request().resourceType() !== 'document') return route.fallback();
    const response = await route.fetch();
    const policy = response.headers()['content-security-policy'];
    if (!policy) return route.fulfill({ response });
    await route.fulfill({ response, headers: { ...response.headers(), 'content-security-policy': allowOrigin(policy, server.origin) } });
  });
}

/** Adds an origin to the directives through which a page loads a remote. */
export function allowOrigin(policy: string, origin: string): string {
  const REMOTE_DIRECTIVES = new Set(['script-src', 'style-src', 'img-src', 'font-src', 'connect-src']);
  return policy
    .split(';')
    .map((part) => part.trim())
    .map((part) => (REMOTE_DIRECTIVES.has(part.split(/\s+/)[0]!) ? `${part} ${origin}` : part))
    .join('; ');
}
