import { describe, expect, it, vi } from 'vitest';
import type { FastifyBaseLogger } from 'fastify';
import { handleStrayRejection } from '../../src/lib/stray-rejections.js';

// pg-boss 10 records a job's outcome without awaiting it: during a PostgreSQL restart that
// rejection reached close-with-grace and shut every API replica down at once (found by the soak).

function pgError(code: string, message: string): Error {
  return Object.assign(new Error(message), { code, severity: 'FATAL' });
}

function judge(reason: unknown) {
  const log = { warn: vi.fn() } as unknown as FastifyBaseLogger;
  const shutDown = vi.fn();
  handleStrayRejection(reason, log, shutDown);
  return { warned: (log.warn as ReturnType<typeof vi.fn>).mock.calls.length, shutDown };
}

describe('a promise rejection nobody awaited', () => {
  it('keeps the API running when it says the database is restarting or unreachable', () => {
    for (const reason of [
      pgError('57P03', 'the database system is shutting down'),
      pgError('57P01', 'terminating connection due to administrator command'),
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
      new Error('outer', { cause: pgError('57P03', 'the database system is starting up') }),
    ]) {
      const { warned, shutDown } = judge(reason);
      expect(shutDown).not.toHaveBeenCalled();
      expect(warned).toBe(1);
    }
  });

  it('shuts the API down for anything else, as an unknown state', () => {
    const bug = new TypeError("Cannot read properties of undefined (reading 'id')");
    expect(judge(bug).shutDown).toHaveBeenCalledWith(bug);
    expect(judge(pgError('23505', 'duplicate key value violates unique constraint')).shutDown).toHaveBeenCalledOnce();
    const plain = judge('a string');
    expect(plain.shutDown.mock.calls[0]![0]).toBeInstanceOf(Error);
  });
});
