import { STEP_UP_TTL_SECONDS } from '@boatshop/contract';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../../db/database.js';
import { ApiError, unauthenticated } from '../../lib/errors.js';

/**
 * Until when the session may do sensitive things without asking again: STEP_UP_TTL_SECONDS after
 * the later of its sign-in (by password or a fresh provider sign-in, both make a new session) and
 * its last step-up. null when that moment has passed.
 */
export async function stepUpFreshUntil(db: Db, sessionId: string): Promise<Date | null> {
  const session = await db.selectFrom('sessions').select(['created_at', 'stepped_up_at']).where('id', '=', sessionId).executeTakeFirst();
  if (!session) return null;
  const last = Math.max(session.created_at.getTime(), session.stepped_up_at?.getTime() ?? 0);
  const until = new Date(last + STEP_UP_TTL_SECONDS * 1000);
  return until.getTime() > Date.now() ? until : null;
}

export async function markSteppedUp(db: Db, sessionId: string): Promise<Date> {
  const now = new Date();
  await db.updateTable('sessions').set({ stepped_up_at: now }).where('id', '=', sessionId).execute();
  return new Date(now.getTime() + STEP_UP_TTL_SECONDS * 1000);
}

/** 403 STEP_UP_REQUIRED unless the password was given again (or the sign-in was) within the last minutes. */
export async function assertSteppedUp(db: Db, request: FastifyRequest): Promise<void> {
  if (!request.user || !request.sessionId) throw unauthenticated();
  if (await stepUpFreshUntil(db, request.sessionId)) return;
  throw new ApiError(403, 'STEP_UP_REQUIRED', 'Enter your password again to do this');
}
