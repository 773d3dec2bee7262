import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { REPO_ROOT, SERVICE_PORTS, shopUrl } from './stack';

export type { RemoteFolder as RemoteApp } from '@boatshop/remotes';
import type { RemoteFolder as RemoteApp } from '@boatshop/remotes';

let remotePortTurn = 0;

/**
 * One of the ports prepareStackEnv set aside (and the shell's CSP allows), in turn; each test
 * stops its server afterwards, so a port is free again when its turn comes back.
 */
function nextRemotePort(): number {
  const ports = (process.env.BOATSHOP_E2E_REMOTE_PORTS ?? '').split(',').filter(Boolean).map(Number);
  if (ports.length === 0) throw new Error('BOATSHOP_E2E_REMOTE_PORTS is not set: run the tests through playwright.config.ts');
  remotePortTurn += 1;
  return ports[remotePortTurn % ports.length]!;
}

/**
 * A test's own instance of one remote's production server, on a port of its own, which the
 * test may stop and start again without disturbing the shared stack other tests use.
 */
export class RemoteServer {
  private child: ChildProcess | null = null;
  /** Shell origins besides the stack's that may fetch this remote's files (CORS), as SHELL_ORIGIN lists them. */
  private readonly shellOrigins: string[] = [];

  private constructor(
    readonly app: RemoteApp,
    readonly distDir: string,
    readonly port: number,
  ) {}

  static async create(app: RemoteApp, distDir = join(REPO_ROOT, app, 'dist')): Promise<RemoteServer> {
    return new RemoteServer(app, distDir, nextRemotePort());
  }

  /** Lets a test's own shell (another origin than the stack's) load this remote, from its next start. */
  allowShellOrigin(origin: string): void {
    if (!this.shellOrigins.includes(origin)) this.shellOrigins.push(origin);
  }

  get origin(): string {
    return `http://localhost:${this.port}`;
  }

  async start(): Promise<void> {
    if (this.child) return;
    const output: string[] = [];
    const child = spawn(
      join(REPO_ROOT, 'node_modules/.bin/tsx'),
      [join(REPO_ROOT, 'e2e/support/serve-front-end.ts'), this.app, this.distDir],
      {
        cwd: REPO_ROOT,
        env: {
          ...process.env,
          [SERVICE_PORTS[this.app].env]: String(this.port),
          SHELL_ORIGIN: [shopUrl(), ...this.shellOrigins].join(','),
        },
        // Its own process group: stop() reaches tsx and the node process it starts.
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
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
 * remotes manifest: the shell itself is the shared, running one. The manifest reaches the shell
 * twice: written into each page by its server (the data block `#boatshop-page-data`, with the
 * page's remote manifest) and from /remotes.json; both are rewritten. The block is rewritten in
 * the page, when the shell reads it: a document fulfilled by the test would lose its loopback
 * address, and Chromium would then refuse the page's requests to the local remotes.
 */
export async function useRemoteServer(page: Page, mfName: string, server: RemoteServer): Promise<void> {
  const entry = `${server.origin}/mf-manifest.json`;
  await page.route('**/remotes.json', async (route) => {
    const response = await route.fetch();
    const body = (await response.json()) as { remotes: Record<string, string>; routes: unknown };
    await route.fulfill({ response, json: { ...body, remotes: { ...body.remotes, [mfName]: entry } } });
  });
  await page.addInitScript(
    ({ name, url }) => {
      const getElementById = Document.prototype.getElementById;
      Document.prototype.getElementById = function (this: Document, id: string) {
        const element = getElementById.call(this, id);
        if (id === 'boatshop-page-data' && element?.textContent && !element.hasAttribute('data-test-rewritten')) {
          const data = JSON.parse(element.textContent) as {
            remotes: Record<string, string>;
            routes: unknown;
            manifests: Record<string, unknown>;
          };
          const original = data.remotes[name];
          if (original) delete data.manifests[original];
          data.remotes[name] = url;
          element.textContent = JSON.stringify(data);
          element.setAttribute('data-test-rewritten', '');
        }
        return element;
      };
    },
    { name: mfName, url: entry },
  );
}
