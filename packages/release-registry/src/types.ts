import type { Tallies } from './counts';
import type { Singletons } from './singletons';
import type { SmokeRecord } from './smoke';

/** What a release records about itself; written once, never changed. */
export interface ReleaseRecord {
  schema: 1;
  remote: string;
  /** `<version>-<first 12 hex of contentHash>`: the folder name under releases/<remote>/. */
  id: string;
  /** From the remote's package.json. */
  version: string;
  /** `git rev-parse HEAD`, with `-dirty` when the working tree had changes; null outside git. */
  commit: string | null;
  builtAt: string;
  publishedAt: string;
  /** sha256 of the published files (names and contents), hex. */
  contentHash: string;
  files: number;
  /** The shared singletons it was built against. */
  singletons: Singletons;
  /** The remote's route data (dist/routes.json) when it has some, else null. */
  routes: unknown;
}

export interface LiveEntry {
  release: string;
  since: string;
  /** The smoke run of the promotion that made it live (passed, or skipped with the operator's reason). */
  smoke?: SmokeRecord;
}

export interface CanaryEntry {
  release: string;
  /** Percent of visitors, 0 < share < 100. */
  share: number;
  since: string;
  smoke?: SmokeRecord;
}

export interface RemoteState {
  live: LiveEntry | null;
  canary: CanaryEntry | null;
  /** Earlier live releases, the most recent last: what rollback goes back to. */
  history: LiveEntry[];
  /** The last canary taken out of rotation automatically, and why (shown by `npm run releases`). */
  withdrawn?: { release: string; reason: string; at: string } | null;
}

/** One environment: which release of each remote is live, and its canary. */
export interface EnvironmentState {
  schema: 1;
  environment: string;
  /** Bumped by every change: concurrent writers can be told apart in logs and tests. */
  revision: number;
  updatedAt: string | null;
  remotes: Record<string, RemoteState>;
}

/**
 * Where releases and environments are kept. The embedded default is FileRegistryStore (JSON
 * files on a disk every shell replica mounts); a PostgreSQL store implements the same four
 * operations with a table per kind and `update` as `SELECT … FOR UPDATE` in a transaction.
 */
export interface RegistryStore {
  /** The environment's state; an empty one when nothing was ever promoted there. */
  read(environment: string): Promise<EnvironmentState>;
  /**
   * Applies `change` to the latest state and stores the result, all or nothing, one writer at a
   * time. `change` may throw to refuse; nothing is written then.
   */
  update(environment: string, change: (state: EnvironmentState) => EnvironmentState): Promise<EnvironmentState>;
  environments(): Promise<string[]>;
  /** Records a release; refuses (IMMUTABLE) when that remote already has a record with this id. */
  addRelease(record: ReleaseRecord): Promise<void>;
  releases(remote: string): Promise<ReleaseRecord[]>;
  /**
   * Page loads and failures per release, one record per shell replica (each replica writes only
   * its own, at a bounded rate): `npm run releases` and the canary verdict read their sum.
   */
  writeCounts(environment: string, replica: string, tallies: Tallies): Promise<void>;
  /** The sum of every replica's counts in the environment, except `except`'s (a replica adds its own live counts). */
  readCounts(environment: string, options?: { except?: string }): Promise<Tallies>;
}

export function emptyEnvironment(environment: string): EnvironmentState {
  return { schema: 1, environment, revision: 0, updatedAt: null, remotes: {} };
}
