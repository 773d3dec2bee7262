import { describe, expect, it, vi } from 'vitest';
import { retryWhileDatabaseUnavailable } from '../../src/lib/retry-database.js';

const restarting = () => Object.assign(new Error('the database system is shutting down'), { code: '57P03' });

describe('a write retried while the database restarts', () => {
  it('succeeds once the database is back', async () => {
    const write = vi.fn().mockRejectedValueOnce(restarting()).mockRejectedValueOnce(restarting()).mockResolvedValue('marked');
    await expect(retryWhileDatabaseUnavailable(write, { attempts: 5, delayMs: 1 })).resolves.toBe('marked');
    expect(write).toHaveBeenCalledTimes(3);
  });

  it('throws any other error at once', async () => {
    const write = vi.fn().mockRejectedValue(Object.assign(new Error('duplicate key'), { code: '23505' }));
    await expect(retryWhileDatabaseUnavailable(write, { attempts: 5, delayMs: 1 })).rejects.toThrow('duplicate key');
    expect(write).toHaveBeenCalledOnce();
  });

  it('gives up after its attempts with the database still away', async () => {
    const write = vi.fn().mockRejectedValue(restarting());
    await expect(retryWhileDatabaseUnavailable(write, { attempts: 3, delayMs: 1 })).rejects.toThrow('shutting down');
    expect(write).toHaveBeenCalledTimes(3);
  });
});
