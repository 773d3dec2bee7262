import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RegistryError } from './errors';
import { PREVIEW_COOKIE, previewCookieValue } from './preview';
import { KNOWN_REMOTES } from './remotes';

/** What a smoke run found: the journeys that passed, and each one that failed with why. */
export interface SmokeOutcome {
  passed: string[];
  failed: { journey: string; error: string }[];
}

/** Runs the remote's smoke journeys in the live shell against the candidate; throws SMOKE_UNAVAILABLE when it cannot run at all. */
export type SmokeRun = (candidate: { remote: string; release: string }) => Promise<SmokeOutcome>;

/** How a promotion was checked in the live shell, recorded with it (npm run releases shows it). */
export type SmokeRecord =
  { result: 'passed'; journeys: number; shell: string; at: string } | { result: 'skipped'; reason: string; at: string };

export interface SmokeOptions {
  /** The live shell, e.g. https://shop.example or http://localhost:3000. */
  shellUrl: string;
  environment: string;
  /** Signs the preview cookie (previewSecret). */
  secret: string;
  /** The repository holding e2e/smoke (the checkout running the command). */
  repo: string;
  /** Where the journeys' progress goes (the operator's terminal). */
  log?: (line: string) => void;
  fetchTimeoutMs?: number;
  /** The Playwright run itself; replaceable in tests. */
  runPlaywright?: (args: PlaywrightArgs) => Promise<SmokeOutcome>;
}

export interface PlaywrightArgs {
  repo: string;
  remote: string;
  env: Record<string, string>;
  log: (line: string) => void;
}

export function assertShellUrl(value: unknown): string {
  if (typeof value !== 'string' || !URL.canParse(value) || !/^https?:$/.test(new URL(value).protocol)) {
    throw new RegistryError(
      'INVALID_INPUT',
      `invalid shell URL ${JSON.stringify(value)}: e.g. https://shop.example or http://localhost:3000`,
    );
  }
  return value.replace(/\/+$/, '');
}

/**
 * The smoke run of a promotion: first asks the live shell for /remotes.json with the signed
 * preview cookie and checks that it names the candidate (the shell reads this registry and
 * environment and knows its preview secret), then runs the remote's journeys (e2e/smoke/<remote>.smoke.ts)
 * in Playwright against the shell with that cookie: only this browser gets the candidate.
 */
export function smokeRun(options: SmokeOptions): SmokeRun {
  const shellUrl = assertShellUrl(options.shellUrl);
  return async ({ remote, release }) => {
    const cookie = `${PREVIEW_COOKIE}=${previewCookieValue(options.secret, { environment: options.environment, remote, release })}`;
    let manifest: Record<string, unknown>;
    // /remotes.json is { remotes: { <MF name>: <manifest URL> }, routes } (a shell from before route data: the map itself).
    try {
      const response = await fetch(`${shellUrl}/remotes.json`, {
        headers: { cookie },
        signal: AbortSignal.timeout(options.fetchTimeoutMs ?? 10_000),
      });
      if (!response.ok) throw new Error(`it answered /remotes.json with ${response.status}`);
      const body = (await response.json()) as { remotes?: Record<string, unknown> } & Record<string, unknown>;
      manifest = typeof body.remotes === 'object' && body.remotes !== null ? body.remotes : body;
    } catch (error) {
      throw new RegistryError(
        'SMOKE_UNAVAILABLE',
        `no live shell answers at ${shellUrl} (${error instanceof Error ? error.message : String(error)}); nothing changed. ` +
          `Start it or give its URL (--shell-url or SHELL_URL), or promote without the smoke run: --no-smoke "<reason>" (recorded)`,
      );
    }
    const served = manifest[KNOWN_REMOTES[remote]!];
    if (typeof served !== 'string' || !served.includes(`/${remote}/${release}/`)) {
      throw new RegistryError(
        'SMOKE_UNAVAILABLE',
        `the shell at ${shellUrl} does not serve the candidate ${remote} ${release} to the operator's preview (it names ${JSON.stringify(served)}); nothing changed. ` +
          `It must read this registry (REMOTES_REGISTRY) and environment ${options.environment}, and share its preview secret (REMOTES_PREVIEW_SECRET or ${'<registry>/preview-secret'})`,
      );
    }
    const [name, ...rest] = cookie.split('=');
    const run = options.runPlaywright ?? runPlaywright;
    return run({
      repo: options.repo,
      remote,
      log: options.log ?? (() => {}),
      env: {
        SMOKE_SHELL_URL: shellUrl,
        SMOKE_PREVIEW_COOKIE: `${name}=${rest.join('=')}`,
        SMOKE_REMOTE: remote,
        SMOKE_RELEASE: release,
      },
    });
  };
}

interface JsonSuite {
  title: string;
  suites?: JsonSuite[];
  specs?: { title: string; ok: boolean; tests: { results: { status: string; error?: { message?: string } }[] }[] }[];
}

/** The journeys of a Playwright JSON report: passed titles, failed titles with their first error line. */
export function readPlaywrightReport(report: { suites?: JsonSuite[]; errors?: { message?: string }[] }): SmokeOutcome {
  const outcome: SmokeOutcome = { passed: [], failed: [] };
  const walk = (suite: JsonSuite, path: string[]) => {
    const here = suite.title && !suite.title.endsWith('.ts') ? [...path, suite.title] : path;
    for (const spec of suite.specs ?? []) {
      const journey = [...here, spec.title].join(' › ');
      if (spec.ok) outcome.passed.push(journey);
      else {
        const error = spec.tests.flatMap((t) => t.results).find((r) => r.error)?.error?.message ?? 'failed';
        outcome.failed.push({ journey, error: firstLine(error) });
      }
    }
    for (const child of suite.suites ?? []) walk(child, here);
  };
  for (const suite of report.suites ?? []) walk(suite, []);
  for (const error of report.errors ?? [])
    outcome.failed.push({ journey: 'the smoke run itself', error: firstLine(error.message ?? 'error') });
  return outcome;
}

/** Terminal colours in Playwright's messages. */
const COLOURS = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');
const firstLine = (text: string) => text.replace(COLOURS, '').trim().split('\n')[0]!.slice(0, 300);

/** `playwright test -c e2e/smoke.config.ts smoke/<remote>` with a JSON report read back. */
export async function runPlaywright({ repo, remote, env, log }: PlaywrightArgs): Promise<SmokeOutcome> {
  const bin = join(repo, 'node_modules/.bin/playwright');
  if (!existsSync(bin)) throw new RegistryError('SMOKE_UNAVAILABLE', `Playwright is not installed in ${repo} (npm ci)`);
  const dir = mkdtempSync(join(tmpdir(), 'boatshop-smoke-'));
  const reportFile = join(dir, 'report.json');
  try {
    // The parent's Playwright variables (a test running the CLI) must not leak into this run.
    const clean = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^(PLAYWRIGHT_|TEST_|PW_)/.test(key)));
    const code = await new Promise<number | null>((resolve, reject) => {
      const child = spawn(bin, ['test', '-c', 'e2e/smoke.config.ts', '--reporter=list,json', `smoke/${remote}.smoke.ts`], {
        cwd: repo,
        env: { ...clean, ...env, PLAYWRIGHT_JSON_OUTPUT_NAME: reportFile, FORCE_COLOR: '0' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      for (const stream of [child.stdout, child.stderr]) {
        stream.setEncoding('utf8');
        let partial = '';
        stream.on('data', (chunk: string) => {
          const lines = (partial + chunk).split('\n');
          partial = lines.pop() ?? '';
          for (const line of lines) if (line.trim()) log(`  smoke │ ${line}`);
        });
      }
      child.on('error', reject);
      child.on('exit', resolve);
    });
    if (!existsSync(reportFile))
      throw new RegistryError('SMOKE_UNAVAILABLE', `the smoke run did not start (playwright exited with ${code})`);
    const outcome = readPlaywrightReport(JSON.parse(readFileSync(reportFile, 'utf8')) as Parameters<typeof readPlaywrightReport>[0]);
    if (outcome.passed.length + outcome.failed.length === 0)
      outcome.failed.push({ journey: `smoke/${remote}.smoke.ts`, error: 'no journey ran' });
    if (code !== 0 && outcome.failed.length === 0)
      outcome.failed.push({ journey: 'the smoke run itself', error: `playwright exited with ${code}` });
    return outcome;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
