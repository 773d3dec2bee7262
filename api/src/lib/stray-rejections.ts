import type { FastifyBaseLogger } from 'fastify';
import { isDatabaseUnavailable } from '../db/database-errors.js';

/**
 * A promise rejection nobody awaited. One from a lost database connection is logged and survived:
 * libraries that talk to the database in the background (pg-boss records a job's outcome without
 * awaiting it) reject that way during a restart or failover, and stopping the process for it
 * would take every replica down at once with the database, as readiness (ADR 0080) is built to
 * avoid. Anything else is a bug whose state is unknown: the process shuts down as before.
 */
export function handleStrayRejection(reason: unknown, log: FastifyBaseLogger, shutDown: (error: Error) => void): void {
  if (isDatabaseUnavailable(reason)) {
    log.warn({ err: reason }, 'a background database call failed while the database was unreachable; the API keeps running');
    return;
  }
  shutDown(reason instanceof Error ? reason : new Error(`unhandled rejection: ${String(reason)}`));
}
