import { open, rename, rm, stat } from 'node:fs/promises';
import { hostname } from 'node:os';
import { RegistryError } from './errors';

export interface LockOptions {
  /** A lock older than this is a crashed writer's and is taken over. */
  staleMs?: number;
  /** How long to wait for the lock before giving up. */
  timeoutMs?: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs fn while holding `<path>.lock`, created with O_EXCL (atomic on local disks and NFSv3+),
 * so one writer at a time across processes and replicas. Writers hold it for milliseconds; a
 * lock older than staleMs is left by a crashed writer and is moved aside (rename is atomic, so
 * two waiters cannot both take it over) before retrying.
 */
export async function withLock<T>(path: string, fn: () => Promise<T>, options: LockOptions = {}): Promise<T> {
  const lockPath = `${path}.lock`;
  const staleMs = options.staleMs ?? 30_000;
  const deadline = Date.now() + (options.timeoutMs ?? 20_000);
  for (let attempt = 0; ; attempt += 1) {
    try {
      const handle = await open(lockPath, 'wx');
      await handle.writeFile(JSON.stringify({ pid: process.pid, host: hostname(), at: new Date().toISOString() }));
      await handle.close();
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const info = await stat(lockPath).catch(() => null);
      if (info && Date.now() - info.mtimeMs > staleMs) {
        const aside = `${lockPath}.stale-${process.pid}-${attempt}`;
        // Only one waiter's rename succeeds; the others find the lock gone and retry.
        if (
          await rename(lockPath, aside).then(
            () => true,
            () => false,
          )
        )
          await rm(aside, { force: true });
        continue;
      }
      if (Date.now() > deadline) {
        throw new RegistryError('LOCKED', `${lockPath} is held by another writer; try again (remove it if no release command is running)`);
      }
      await sleep(5 + Math.floor(Math.random() * 20));
    }
  }
  try {
    return await fn();
  } finally {
    await rm(lockPath, { force: true });
  }
}
