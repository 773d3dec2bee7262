import { describeTally, tallyOf } from './counts';
import { RegistryError } from './errors';
import { inCanary } from './canary';
import { assertEnvironment, assertKnownRemote, KNOWN_REMOTES } from './remotes';
import { pathsCollide, routeKey, routesOf } from '@boatshop/web-shared/route-data';
import { compatibilityProblems, type Singletons } from './singletons';
import type { SmokeRecord, SmokeRun } from './smoke';
import type { EnvironmentState, RegistryStore, ReleaseRecord, RemoteState } from './types';

const HISTORY_KEPT = 20;

const emptyRemote = (): RemoteState => ({ live: null, canary: null, history: [] });

/** `0.2.0` or `0.2.0-3f9a1c2b4d5e` → that remote's release, or a refusal naming what exists. */
export async function findRelease(store: RegistryStore, remote: string, version: unknown): Promise<ReleaseRecord> {
  assertKnownRemote(remote);
  if (typeof version !== 'string' || !/^[0-9A-Za-z.+-]{1,80}$/.test(version)) {
    throw new RegistryError('INVALID_INPUT', `invalid version ${JSON.stringify(version)}: e.g. 0.2.0 or 0.2.0-3f9a1c2b4d5e`);
  }
  const releases = await store.releases(remote);
  const found = releases.find((r) => r.id === version || r.version === version);
  if (!found) {
    const known = releases.slice(-5).map((r) => r.version);
    throw new RegistryError(
      'UNKNOWN_RELEASE',
      `${remote} has no release ${version}${known.length ? ` (latest: ${known.join(', ')})` : ' (nothing released yet: npm run release -- ' + remote + ')'}`,
    );
  }
  return found;
}

export function parseShare(value: unknown): number {
  const share = typeof value === 'number' ? value : typeof value === 'string' && /^\d{1,2}(\.\d{1,2})?$/.test(value) ? Number(value) : NaN;
  if (!(share > 0 && share < 100)) {
    throw new RegistryError(
      'INVALID_INPUT',
      `invalid canary share ${JSON.stringify(value)}: a percentage above 0 and below 100 (promote without --canary for everyone)`,
    );
  }
  return share;
}

export interface PromoteInput {
  environment: string;
  remote: string;
  version: string;
  /** Percent of visitors for a canary; absent: the release becomes live for everyone. */
  canary?: number | string;
  /** The live shell's shared singletons (readSingletons of the shell). */
  shellSingletons: Singletons;
  /**
   * The smoke run: the candidate's journeys in the live shell, after every other check and
   * before anything is written; a failed journey refuses the promotion (SMOKE_FAILED, naming it).
   * `{ skip: reason }` promotes without one and records the reason. The CLI always passes one of
   * the two; absent (library callers such as tests), nothing runs and nothing is recorded.
   */
  smoke?: { run: SmokeRun; shell: string } | { skip: string };
  now?: Date;
}

export interface ChangeResult {
  state: EnvironmentState;
  message: string;
}

/**
 * Makes a release live, or its canary. Refused, with the registry unchanged: an unknown remote,
 * version or environment, a malformed share, a release whose shared singletons do not fit the
 * shell's (each failed check is named), a canary of the release already live.
 */
export async function promote(store: RegistryStore, input: PromoteInput): Promise<ChangeResult> {
  const environment = assertEnvironment(input.environment);
  const remote = assertKnownRemote(input.remote);
  const share = input.canary === undefined ? null : parseShare(input.canary);
  const release = await findRelease(store, remote, input.version);
  const problems = compatibilityProblems(release.singletons, input.shellSingletons, `${remote} ${release.version}`);
  if (problems.length > 0) {
    throw new RegistryError(
      'INCOMPATIBLE',
      `${remote} ${release.id} cannot run in the live shell; shared singleton check failed:\n  ${problems.map((p) => p.message).join('\n  ')}`,
    );
  }
  // The other remotes' route data, read now; checked below against the state being changed.
  const ownPaths = routePaths(release.routes);
  const othersRoutes = new Map<string, string[]>();
  if (ownPaths.length > 0) {
    for (const other of Object.keys(KNOWN_REMOTES).filter((name) => name !== remote)) {
      for (const record of await store.releases(other)) othersRoutes.set(`${other}\0${record.id}`, routePaths(record.routes));
    }
  }
  const since = (input.now ?? new Date()).toISOString();
  /** Refusals that depend on the environment's state: checked before the smoke run and again under the lock. */
  const check = (current: EnvironmentState) => {
    const entry = current.remotes[remote] ?? emptyRemote();
    const collisions = routeCollisions(ownPaths, current, remote, othersRoutes);
    if (collisions.length > 0) {
      throw new RegistryError(
        'ROUTE_COLLISION',
        `${remote} ${release.id} claims paths other remotes serve in ${environment}:\n  ${collisions.join('\n  ')}`,
      );
    }
    if (share !== null) {
      if (entry.live?.release === release.id) {
        throw new RegistryError(
          'INVALID_INPUT',
          `${remote} ${release.id} is already live in ${environment}; a canary must be another release`,
        );
      }
      if (!entry.live) {
        throw new RegistryError('INVALID_INPUT', `${remote} has no live release in ${environment} yet: promote one for everyone first`);
      }
    }
    return entry;
  };
  const before = check(await store.read(environment));
  if (share === null && before.live?.release === release.id) {
    return { state: await store.read(environment), message: `${remote} ${release.id} is already live in ${environment}; nothing changed` };
  }
  const smoke = await smokeGate(input.smoke, remote, release.id, since);
  let message = '';
  const state = await store.update(environment, (current) => {
    const entry = check(current);
    const recorded = smoke ? { smoke } : {};
    if (share !== null) {
      entry.canary = {
        release: release.id,
        share,
        since: entry.canary?.release === release.id ? entry.canary.since : since,
        ...recorded,
      };
      message = `${remote} ${release.id}: canary for ${share}% of visitors in ${environment}`;
    } else if (entry.live?.release === release.id) {
      message = `${remote} ${release.id} is already live in ${environment}; nothing changed`;
      return current;
    } else {
      if (entry.live) entry.history = [...entry.history, entry.live].slice(-HISTORY_KEPT);
      entry.live = { release: release.id, since, ...recorded };
      if (entry.canary?.release === release.id) entry.canary = null;
      message = `${remote} ${release.id} is live for everyone in ${environment}`;
    }
    if (smoke)
      message +=
        smoke.result === 'passed'
          ? ` (smoke run passed: ${smoke.journeys} journeys in ${smoke.shell})`
          : ` (smoke run skipped: ${smoke.reason})`;
    current.remotes[remote] = entry;
    return current;
  });
  return { state, message };
}

/** Runs the smoke run (or records why not); a failed journey refuses the promotion, naming it. */
async function smokeGate(smoke: PromoteInput['smoke'], remote: string, release: string, at: string): Promise<SmokeRecord | null> {
  if (!smoke) return null;
  if ('skip' in smoke) {
    const reason = typeof smoke.skip === 'string' ? smoke.skip.trim().replace(/\s+/g, ' ') : '';
    if (reason.length < 5 || reason.length > 200) {
      throw new RegistryError('INVALID_INPUT', 'skipping the smoke run needs a reason (5 to 200 characters), recorded with the promotion');
    }
    return { result: 'skipped', reason, at };
  }
  const outcome = await smoke.run({ remote, release });
  if (outcome.failed.length > 0 || outcome.passed.length === 0) {
    const failed = outcome.failed.length ? outcome.failed : [{ journey: '(none)', error: 'no journey ran' }];
    throw new RegistryError(
      'SMOKE_FAILED',
      `${remote} ${release} failed its smoke run in the live shell (${smoke.shell}); nothing changed:\n  ${failed
        .map((f) => `✗ ${f.journey}: ${f.error}`)
        .join('\n  ')}${outcome.passed.length ? `\n  passed: ${outcome.passed.join('; ')}` : ''}`,
    );
  }
  return { result: 'passed', journeys: outcome.passed.length, shell: smoke.shell, at };
}

/** The paths of a release's route data (routes.json or a bare array), '/product/:id' and '/Product/:x/' alike (routeKey). */
export function routePaths(routes: unknown): string[] {
  return routesOf(routes)
    .map((route) => (typeof route === 'object' && route !== null ? (route as { path?: unknown }).path : undefined))
    .filter((path): path is string => typeof path === 'string')
    .map(routeKey);
}

/** Paths the release claims that a live or canary release of another remote claims too. */
function routeCollisions(paths: string[], state: EnvironmentState, remote: string, others: Map<string, string[]>): string[] {
  if (paths.length === 0) return [];
  const found: string[] = [];
  for (const [other, entry] of Object.entries(state.remotes)) {
    if (other === remote) continue;
    for (const id of [entry.live?.release, entry.canary?.release]) {
      if (!id) continue;
      for (const path of others.get(`${other}\0${id}`) ?? []) {
        if (paths.some((own) => pathsCollide(own, path))) found.push(`${path} (${other} ${id})`);
      }
    }
  }
  return found;
}

export interface RollbackInput {
  environment: string;
  remote: string;
  /** Only withdraw the canary, keep the live release. */
  canaryOnly?: boolean;
  now?: Date;
}

/**
 * Back to the previous live release at once (no build: its files are still published), and any
 * canary withdrawn; or, with canaryOnly, the canary withdrawn alone.
 */
export async function rollback(store: RegistryStore, input: RollbackInput): Promise<ChangeResult> {
  const environment = assertEnvironment(input.environment);
  const remote = assertKnownRemote(input.remote);
  const since = (input.now ?? new Date()).toISOString();
  let message = '';
  const state = await store.update(environment, (current) => {
    const entry = current.remotes[remote] ?? emptyRemote();
    if (input.canaryOnly) {
      if (!entry.canary) throw new RegistryError('NOTHING_TO_ROLL_BACK', `${remote} has no canary in ${environment}`);
      message = `${remote}: canary ${entry.canary.release} withdrawn in ${environment}; ${entry.live?.release ?? 'nothing'} stays live`;
      entry.canary = null;
    } else {
      const previous = entry.history.at(-1);
      if (!previous) {
        throw new RegistryError('NOTHING_TO_ROLL_BACK', `${remote} has no previous live release in ${environment} to roll back to`);
      }
      message = `${remote}: ${entry.live?.release} → ${previous.release} in ${environment}${entry.canary ? ` (canary ${entry.canary.release} withdrawn)` : ''}`;
      entry.history = entry.history.slice(0, -1);
      entry.live = { release: previous.release, since };
      entry.canary = null;
    }
    current.remotes[remote] = entry;
    return current;
  });
  return { state, message };
}

export interface WithdrawInput {
  environment: string;
  remote: string;
  /** The canary judged: nothing happens if another release is in canary by now. */
  release: string;
  reason: string;
  now?: Date;
}

/**
 * Takes a failing canary out of rotation (the shell's server calls it on canaryVerdict) and
 * records why, for `npm run releases`. Null when that release is no longer the canary.
 */
export async function withdrawCanary(store: RegistryStore, input: WithdrawInput): Promise<EnvironmentState | null> {
  const environment = assertEnvironment(input.environment);
  const remote = assertKnownRemote(input.remote);
  let withdrawn = false;
  const state = await store.update(environment, (current) => {
    const entry = current.remotes[remote];
    if (!entry?.canary || entry.canary.release !== input.release) return current;
    entry.canary = null;
    entry.withdrawn = { release: input.release, reason: input.reason.slice(0, 300), at: (input.now ?? new Date()).toISOString() };
    withdrawn = true;
    return current;
  });
  return withdrawn ? state : null;
}

export interface ManifestOptions {
  /** Where the releases folder is served, e.g. `/releases` or `https://cdn.example/releases`. */
  baseUrl: string;
  /** The visitor's canary seed (cookie), if any. */
  seed?: string | null;
}

/**
 * The registry's part of /remotes.json for one visitor: MF name → the mf-manifest.json of the
 * release they get (the canary when their bucket falls in its share, else the live one). Remotes
 * never released in this environment are absent: the caller keeps its default for them.
 */
export function manifestForVisitor(state: EnvironmentState, options: ManifestOptions): Record<string, string> {
  const base = options.baseUrl.replace(/\/+$/, '');
  const manifest: Record<string, string> = {};
  for (const [remote, entry] of Object.entries(state.remotes)) {
    const mfName = KNOWN_REMOTES[remote];
    if (!mfName || !entry.live) continue;
    const release = inCanary(options.seed, remote, entry.canary) ? entry.canary!.release : entry.live.release;
    manifest[mfName] = `${base}/${remote}/${release}/mf-manifest.json`;
  }
  return manifest;
}

export function hasCanary(state: EnvironmentState): boolean {
  return Object.values(state.remotes).some((entry) => entry.canary !== null);
}

/** "3 d", "5 h", "12 min", "40 s". */
export function age(since: string, now = new Date()): string {
  const seconds = Math.max(0, Math.round((now.getTime() - Date.parse(since)) / 1000));
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)} h`;
  return `${Math.floor(seconds / 86_400)} d`;
}

/** What `npm run releases` prints: per environment and remote, live and canary with ages. */
export async function describe(store: RegistryStore, environments?: string[], now = new Date()): Promise<string> {
  const names = environments ?? (await store.environments());
  if (names.length === 0) return 'No environment has a release yet (npm run release -- <remote>, then npm run promote).';
  const lines: string[] = [];
  for (const environment of names) {
    const [state, counts] = await Promise.all([store.read(environment), store.readCounts(environment)]);
    lines.push(`${environment} (revision ${state.revision})`);
    for (const remote of Object.keys(KNOWN_REMOTES)) {
      const entry = state.remotes[remote];
      const releases = await store.releases(remote);
      const commitOf = (id: string) => releases.find((r) => r.id === id)?.commit?.slice(0, 10) ?? '?';
      if (!entry?.live) {
        lines.push(`  ${remote.padEnd(17)} not released here (served from its own origin)`);
        continue;
      }
      lines.push(
        `  ${remote.padEnd(17)} live   ${entry.live.release}  commit ${commitOf(entry.live.release)}  for ${age(entry.live.since, now)}  ${describeTally(tallyOf(counts, remote, entry.live.release))}`,
      );
      if (entry.canary) {
        lines.push(
          `  ${''.padEnd(17)} canary ${entry.canary.release}  commit ${commitOf(entry.canary.release)}  ${entry.canary.share}% for ${age(entry.canary.since, now)}  ${describeTally(tallyOf(counts, remote, entry.canary.release))}`,
        );
      }
      for (const [what, smoke] of [
        ['live', entry.live.smoke],
        ['canary', entry.canary?.smoke],
      ] as const) {
        if (smoke?.result === 'skipped') lines.push(`  ${''.padEnd(17)} ${what} promoted WITHOUT a smoke run: ${smoke.reason}`);
      }
      const previous = entry.history.at(-1);
      if (previous) lines.push(`  ${''.padEnd(17)} rollback → ${previous.release}`);
      if (entry.withdrawn) {
        lines.push(
          `  ${''.padEnd(17)} canary ${entry.withdrawn.release} withdrawn automatically ${age(entry.withdrawn.at, now)} ago: ${entry.withdrawn.reason}`,
        );
      }
    }
  }
  return lines.join('\n');
}
