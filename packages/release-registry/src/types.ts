import type { Readable } from 'node:stream';
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

/** One published file of a release, as the shell serves it. */
export interface ReleaseFile {
  body: Readable;
  contentType: string;
  /** Bytes, when the store knows them up front. */
  length: number | null;
}

/**
 * Where releases and environments are kept. The embedded default is FileRegistryStore (JSON
 * files on a disk every shell replica mounts); S3RegistryStore keeps the same objects in an
 * S3-compatible bucket, `update` being a conditional write (ADR 0083).
 */
export interface RegistryStore {
  /** Where a release's files are, for people: a folder or an s3:// URL. */
  releaseLocation(remote: string, id: string): string;
  /**
   * Stores the files (paths relative to `sourceDir`, '/'-separated) of release `id`. A published
   * file is never replaced: the id names the content, so a second upload is the same bytes. The
   * release becomes visible through its record (addRelease), written after this.
   */
  putReleaseFiles(remote: string, id: string, sourceDir: string, files: string[]): Promise<void>;
  /** A published file (`file` relative to the release), or null when there is none. */
  readReleaseFile(remote: string, id: string, file: string): Promise<ReleaseFile | null>;
  /** The environment's state; an empty one when nothing was ever promoted there. */
  read(environment: string): Promise<EnvironmentState>;
  /**
   * Applies `change` to the latest state and stores the result, all or nothing; concurrent
   * changes apply one after the other, none is lost (a lock, or a conditional write retried on
   * the newer state). `change` may throw to refuse; nothing is written then. It may be called
   * more than once, so it must not have side effects.
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
