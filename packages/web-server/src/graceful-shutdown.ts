import closeWithGrace from 'close-with-grace';
import type { FastifyInstance } from 'fastify';

type Env = Record<string, string | undefined>;

/** SHUTDOWN_GRACE_MS unset: in-flight requests get this long on SIGTERM. */
export const DEFAULT_SHUTDOWN_GRACE_MS = 10_000;

export function shutdownGraceMs(env: Env): number {
  const value = Number(env.SHUTDOWN_GRACE_MS);
  return Number.isInteger(value) && value >= 100 ? value : DEFAULT_SHUTDOWN_GRACE_MS;
}

/**
 * On SIGTERM/SIGINT (a rolling deploy, a scale-down): stop taking connections, finish the
 * requests in flight, then exit 0; past the deadline exit 1 anyway, so a stuck client cannot hold
 * a replica that the orchestrator is waiting to replace. `afterClose` runs once the server is
 * closed (the traces still buffered are sent then).
 */
export function closeOnSignal(app: FastifyInstance, name: string, env: Env, afterClose?: () => Promise<void> | undefined): void {
  closeWithGrace({ delay: shutdownGraceMs(env) }, async ({ err, signal }) => {
    if (err) console.error(`${name} closing after an error: ${err.message}`);
    else console.log(`${name} closing on ${signal}`);
    await app.close();
    await afterClose?.();
  });
}
