// The teams' commands (README "Shipping a remote"), run from the repository root:
//   npm run release  -- <remote> [--no-build]
//   npm run promote  -- <remote> <version> [--canary <percent>] [--env <environment>]
//                       [--shell-url <url>] | [--no-smoke "<reason>"]
//   npm run rollback -- <remote> [--canary] [--env <environment>]
//   npm run releases [-- --env <environment>]
// The registry folder is REMOTES_REGISTRY (or --registry), else .releases/ in the repository, or
// with REGISTRY_STORE=s3 the bucket its settings name (store-config.ts); the
// environment is --env, else REMOTES_ENV, else production. A refusal prints why and exits 1,
// leaving the registry as it was. Promotion runs the remote's smoke journeys (e2e/smoke) in the
// live shell (--shell-url, else SHELL_URL) against the candidate first; without a reachable
// shell it refuses, unless --no-smoke gives a reason, which is recorded with the promotion.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RegistryError } from './errors';
import { publishRelease } from './publish';
import { describe, promote, rollback } from './registry';
import { assertEnvironment, assertKnownRemote } from './remotes';
import { readSingletons } from './singletons';
import { previewSecretOf, registryStoreFromEnv } from './store-config';
import { assertShellUrl, smokeRun, type SmokeRun } from './smoke';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

interface Parsed {
  positional: string[];
  flags: Record<string, string | true>;
}

/** Strict: only the flags a command knows, each value present when it needs one. */
export function parseArgs(argv: string[], known: Record<string, 'value' | 'switch'>): Parsed {
  const positional: string[] = [];
  const flags: Record<string, string | true> = {};
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i]!;
    if (!arg.startsWith('--')) {
      positional.push(arg);
      continue;
    }
    const [name, inline] = arg.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
    const kind = known[name];
    if (!kind) throw new RegistryError('INVALID_INPUT', `unknown option --${name}`);
    if (kind === 'switch') {
      if (inline !== undefined) throw new RegistryError('INVALID_INPUT', `--${name} takes no value`);
      flags[name] = true;
    } else {
      const value = inline ?? argv[++i];
      if (value === undefined || value.startsWith('--')) throw new RegistryError('INVALID_INPUT', `--${name} needs a value`);
      flags[name] = value;
    }
  }
  return { positional, flags };
}

function exactly(positional: string[], names: string[], usage: string): string[] {
  if (positional.length !== names.length) throw new RegistryError('INVALID_INPUT', `expected ${names.join(' ')}; usage: ${usage}`);
  return positional;
}

function gitCommit(): string | null {
  const head = spawnSync('git', ['rev-parse', 'HEAD'], { cwd: REPO, encoding: 'utf8' });
  if (head.status !== 0) return null;
  const dirty = spawnSync('git', ['status', '--porcelain'], { cwd: REPO, encoding: 'utf8' }).stdout.trim() !== '';
  return `${head.stdout.trim()}${dirty ? '-dirty' : ''}`;
}

export interface CliDeps {
  /** Replaces the Playwright run of the smoke journeys (tests). */
  runPlaywright?: Parameters<typeof smokeRun>[0]['runPlaywright'];
}

export async function main(
  argv: string[],
  env: Record<string, string | undefined> = process.env,
  out = console.log,
  deps: CliDeps = {},
): Promise<void> {
  const [command, ...rest] = argv;
  const common = { registry: 'value', env: 'value' } as const;
  // --registry names a folder; otherwise REGISTRY_STORE and its settings (store-config.ts) decide.
  const storeOf = (flags: Parsed['flags']) =>
    typeof flags.registry === 'string'
      ? registryStoreFromEnv({ REMOTES_REGISTRY: flags.registry })!
      : registryStoreFromEnv(env, join(REPO, '.releases'))!;
  const environmentOf = (flags: Parsed['flags']) =>
    assertEnvironment(typeof flags.env === 'string' ? flags.env : env.REMOTES_ENV || 'production');
  const repo = env.BOATSHOP_REPO ? resolve(env.BOATSHOP_REPO) : REPO;

  switch (command) {
    case 'release': {
      const usage = 'npm run release -- <remote> [--no-build]';
      const { positional, flags } = parseArgs(rest, { ...common, 'no-build': 'switch' });
      const [remoteArg] = exactly(positional, ['<remote>'], usage);
      const remote = assertKnownRemote(remoteArg);
      const appDir = join(repo, remote);
      if (!flags['no-build']) {
        out(`Building ${remote} (production)…`);
        const build = spawnSync('npm', ['run', 'build', '-w', remote], {
          cwd: repo,
          stdio: 'inherit',
          env: { ...process.env, NODE_ENV: 'production' },
        });
        if (build.status !== 0) throw new RegistryError('INVALID_INPUT', `the build of ${remote} failed; nothing was published`);
      }
      const pkg = JSON.parse(readFileSync(join(appDir, 'package.json'), 'utf8')) as { version?: string };
      const store = storeOf(flags);
      const { record, created } = await publishRelease(store, {
        remote,
        distDir: join(appDir, 'dist'),
        version: pkg.version ?? '',
        commit: gitCommit(),
        builtAt: new Date().toISOString(),
        singletons: readSingletons(appDir),
      });
      out(
        created
          ? `Published ${remote} ${record.id} (${record.files} files) to ${store.releaseLocation(remote, record.id)}\nNext: npm run promote -- ${remote} ${record.version} --canary 10`
          : `${remote} ${record.id} was already published with exactly this content; nothing changed`,
      );
      return;
    }
    case 'promote': {
      const usage =
        'npm run promote -- <remote> <version> [--canary <percent>] [--env <environment>] [--shell-url <url> | --no-smoke "<reason>"]';
      const { positional, flags } = parseArgs(rest, { ...common, canary: 'value', 'shell-url': 'value', 'no-smoke': 'value' });
      const [remote, version] = exactly(positional, ['<remote>', '<version>'], usage);
      const store = storeOf(flags);
      const environment = environmentOf(flags);
      let smoke: { run: SmokeRun; shell: string } | { skip: string };
      if (typeof flags['no-smoke'] === 'string') {
        smoke = { skip: flags['no-smoke'] };
      } else {
        const given = typeof flags['shell-url'] === 'string' ? flags['shell-url'] : env.SHELL_URL;
        const shell = given ? assertShellUrl(given) : null;
        const run: SmokeRun = async (candidate) => {
          if (!shell) {
            throw new RegistryError(
              'SMOKE_UNAVAILABLE',
              `promotion first runs ${candidate.remote}'s smoke journeys in the live shell: give its URL (--shell-url <url> or SHELL_URL), ` +
                `or promote without them: --no-smoke "<reason>" (recorded); nothing changed`,
            );
          }
          const secret = await previewSecretOf(store, env, true);
          out(`Smoke run: ${candidate.remote} ${candidate.release} in the live shell at ${shell} (this browser only)…`);
          return smokeRun({
            shellUrl: shell,
            environment,
            secret: secret!,
            repo,
            log: out,
            ...(deps.runPlaywright ? { runPlaywright: deps.runPlaywright } : {}),
          })(candidate);
        };
        smoke = { run, shell: shell ?? '(none)' };
      }
      const { message } = await promote(store, {
        environment,
        remote: remote!,
        version: version!,
        ...(typeof flags.canary === 'string' ? { canary: flags.canary } : {}),
        shellSingletons: readSingletons(join(repo, 'shell')),
        smoke,
      });
      out(message);
      return;
    }
    case 'rollback': {
      const usage = 'npm run rollback -- <remote> [--canary] [--env <environment>]';
      const { positional, flags } = parseArgs(rest, { ...common, canary: 'switch' });
      const [remote] = exactly(positional, ['<remote>'], usage);
      const { message } = await rollback(storeOf(flags), {
        environment: environmentOf(flags),
        remote: remote!,
        canaryOnly: flags.canary === true,
      });
      out(message);
      return;
    }
    case 'releases': {
      const { positional, flags } = parseArgs(rest, common);
      exactly(positional, [], 'npm run releases [-- --env <environment>]');
      out(await describe(storeOf(flags), typeof flags.env === 'string' ? [environmentOf(flags)] : undefined));
      return;
    }
    default:
      throw new RegistryError('INVALID_INPUT', `unknown command ${JSON.stringify(command)}: release, promote, rollback or releases`);
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    if (error instanceof RegistryError) console.error(`refused (${error.code}): ${error.message}`);
    else console.error(error);
    process.exitCode = 1;
  });
}
