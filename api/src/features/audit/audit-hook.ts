import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import { recordAudit } from './audit-log.js';

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * The automatic record of every mutating admin request by a signed-in person (also refused and
 * failed ones, with their status): method and route, the target id, the body with secrets
 * redacted. Skipped when the route recorded a successful action itself with recordAudit (which
 * carries before and after). Runs before the answer leaves, so the row exists when the client
 * sees the result; a failure to write it is logged as an error, never hidden.
 */
export async function auditAdminRequest(db: Kysely<Database>, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  if (!MUTATING.has(request.method) || !request.user) return;
  if (request.auditRecorded && reply.statusCode < 400) return;
  const params = (request.params ?? {}) as Record<string, unknown>;
  const targetId = typeof params.id === 'string' ? params.id : null;
  try {
    await db.transaction().execute((trx) =>
      recordAudit(trx, {
        request,
        action: `${request.method} ${request.routeOptions.url ?? request.url}`,
        target: targetId ? { type: request.routeOptions.url?.split('/')[3] ?? 'admin', id: targetId } : null,
        status: reply.statusCode,
        details: request.body === undefined ? null : { body: request.body },
      }),
    );
  } catch (err) {
    request.log.error({ err }, 'the audit log could not record an admin request');
  }
}
