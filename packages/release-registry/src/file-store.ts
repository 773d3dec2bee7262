import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { cp, mkdir, open, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { contentTypeOf, isReleaseId, isReleasePath } from './release-paths';
import { mergeTallies, parseCounts, REPLICA_NAME, type CountsFile, type Tallies } from './counts';
import { RegistryError } from './errors';
import { withLock, type LockOptions } from './lock';
import { assertEnvironment, assertKnownRemote } from './remotes';
import { parseEnvironmentState } from './validate';
import { emptyEnvironment, type EnvironmentState, type RegistryStore, type ReleaseFile, type ReleaseRecord } from './types';

/**
 * The embedded registry: a folder (REMOTES_REGISTRY) holding
 *   releases/<remote>/<version>-<hash>/…   the published files, served with immutable caching
 *   records/<remote>/<version>-<hash>.json what each release records
 *   environments/<env>.json                 live and canary per remote
 *   counts/<env>/<replica>.json             page loads and failures per release, one file per shell replica
 * Every write goes to a temporary file that is then renamed over the old one (readers see the
 * old or the new file, never half of one), under an O_EXCL lock file so concurrent promotions
 * apply one after the other. Shell replicas share it by mounting the same volume.
 */
export class FileRegistryStore implements RegistryStore {
  constructor(
    readonly root: string,
    private readonly lockOptions: LockOptions = {},
  ) {}

  get releasesDir(): string {
    return join(this.root, 'releases');
  }

  releaseLocation(remote: string, id: string): string {
    return join(this.releasesDir, remote, id);
  }

  /** Copied to a temporary folder renamed into place: a half-copied release is never visible. */
  async putReleaseFiles(remote: string, id: string, sourceDir: string, files: string[]): Promise<void> {
    const target = join(this.releasesDir, assertKnownRemote(remote), id);
    if (
      await stat(target).then(
        () => true,
        () => false,
      )
    )
      return;
    const temp = join(this.releasesDir, remote, `.incoming-${randomBytes(6).toString('hex')}`);
    await mkdir(temp, { recursive: true });
    try {
      for (const file of files) {
        await mkdir(join(temp, file, '..'), { recursive: true });
        await cp(join(sourceDir, file), join(temp, file));
      }
      // Fails if another publisher got there first; its files are the same content.
      await rename(temp, target).catch((error: NodeJS.ErrnoException) => {
        if (!['EEXIST', 'ENOTEMPTY'].includes(error.code ?? '')) throw error;
      });
    } finally {
      await rm(temp, { recursive: true, force: true });
    }
  }

  async readReleaseFile(remote: string, id: string, file: string): Promise<ReleaseFile | null> {
    if (!isReleasePath(file) || !isReleaseId(id)) return null;
    const path = join(this.releasesDir, assertKnownRemote(remote), id, file);
    const info = await stat(path).catch(() => null);
    if (!info?.isFile()) return null;
    return { body: createReadStream(path), contentType: contentTypeOf(file), length: info.size };
  }

  private environmentFile(environment: string): string {
    return join(this.root, 'environments', `${assertEnvironment(environment)}.json`);
  }

  async read(environment: string): Promise<EnvironmentState> {
    const file = this.environmentFile(environment);
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return emptyEnvironment(environment);
      throw error;
    }
    return parseEnvironmentState(text, file);
  }

  async update(environment: string, change: (state: EnvironmentState) => EnvironmentState): Promise<EnvironmentState> {
    const file = this.environmentFile(environment);
    await mkdir(join(this.root, 'environments'), { recursive: true });
    return withLock(
      file,
      async () => {
        const current = await this.read(environment);
        const next = change(structuredClone(current));
        if (JSON.stringify(next) === JSON.stringify(current)) return current;
        const stored: EnvironmentState = { ...next, revision: current.revision + 1, updatedAt: new Date().toISOString() };
        // Refuse to write what could not be read back.
        parseEnvironmentState(JSON.stringify(stored), file);
        await writeAtomically(file, `${JSON.stringify(stored, null, 2)}\n`);
        return stored;
      },
      this.lockOptions,
    );
  }

  async environments(): Promise<string[]> {
    const names = await readdir(join(this.root, 'environments')).catch(() => [] as string[]);
    return names
      .filter((name) => /^[a-z][a-z0-9-]{0,31}\.json$/.test(name))
      .map((name) => name.slice(0, -5))
      .sort();
  }

  async addRelease(record: ReleaseRecord): Promise<void> {
    const dir = join(this.root, 'records', assertKnownRemote(record.remote));
    await mkdir(dir, { recursive: true });
    // 'wx': a record is written once; a second publication of the same id is refused here too.
    const handle = await open(join(dir, `${record.id}.json`), 'wx').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'EEXIST') throw new RegistryError('IMMUTABLE', `${record.remote} ${record.id} is already recorded`);
      throw error;
    });
    try {
      await handle.writeFile(`${JSON.stringify(record, null, 2)}\n`);
      await handle.sync();
    } finally {
      await handle.close();
    }
  }

  async releases(remote: string): Promise<ReleaseRecord[]> {
    const dir = join(this.root, 'records', assertKnownRemote(remote));
    const names = await readdir(dir).catch(() => [] as string[]);
    const records: ReleaseRecord[] = [];
    for (const name of names.filter((n) => n.endsWith('.json'))) {
      try {
        records.push(JSON.parse(await readFile(join(dir, name), 'utf8')) as ReleaseRecord);
      } catch {
        // A record being written right now (or a stray file): not a release yet.
      }
    }
    return records.sort((a, b) => a.publishedAt.localeCompare(b.publishedAt));
  }

  private countsDir(environment: string): string {
    return join(this.root, 'counts', assertEnvironment(environment));
  }

  /** One writer per file (the replica itself), so no lock: write temp + rename is enough. */
  async writeCounts(environment: string, replica: string, tallies: Tallies): Promise<void> {
    if (!REPLICA_NAME.test(replica)) throw new RegistryError('INVALID_INPUT', `invalid replica name ${JSON.stringify(replica)}`);
    const dir = this.countsDir(environment);
    await mkdir(dir, { recursive: true });
    const file: CountsFile = { schema: 1, replica, environment, updatedAt: new Date().toISOString(), tallies };
    await writeAtomically(join(dir, `${replica}.json`), `${JSON.stringify(file)}\n`);
  }

  /**
   * Every replica's counts, summed. A file that cannot be read or parsed is skipped (a replica
   * writing right now renames atomically, so that is a stray file), and so is one no replica has
   * written for COUNTS_KEPT_DAYS: a replica gone long ago says nothing about today's releases.
   */
  async readCounts(environment: string, options: { except?: string } = {}): Promise<Tallies> {
    const dir = this.countsDir(environment);
    const names = await readdir(dir).catch(() => [] as string[]);
    const oldest = Date.now() - COUNTS_KEPT_DAYS * 86_400_000;
    const all: Tallies[] = [];
    for (const name of names) {
      if (!name.endsWith('.json') || name === `${options.except}.json`) continue;
      try {
        if ((await stat(join(dir, name))).mtimeMs < oldest) continue;
        const tallies = parseCounts(JSON.parse(await readFile(join(dir, name), 'utf8')));
        if (tallies) all.push(tallies);
      } catch {
        // gone or half-copied by hand: not counted
      }
    }
    return mergeTallies(...all);
  }
}

const COUNTS_KEPT_DAYS = 30;

/** Temporary file in the same folder, flushed, then renamed over the target. */
export async function writeAtomically(file: string, content: string): Promise<void> {
  const temp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  const handle = await open(temp, 'wx');
  try {
    await handle.writeFile(content);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}
