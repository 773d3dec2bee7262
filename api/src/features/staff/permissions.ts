import { hasPermission, staffRoleOf, type Permission } from '@boatshop/contract';
import type { FastifyRequest } from 'fastify';
import type { PeopleConfig } from '../../config.js';
import type { Db } from '../../db/database.js';
import { assertSteppedUp } from './step-up.js';
import { ApiError, forbidden, unauthenticated } from '../../lib/errors.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** What the route needs (an admin route's one permission from the contract's PERMISSIONS). */
    permission?: Permission;
  }
}

/**
 * The gate of every admin route: a staff role whose permissions (the contract's ROLE_PERMISSIONS)
 * include the one the route declares in `config.permission`. A route that declares none is for
 * owners only, so a route added without thinking about permissions is closed, not open.
 */
export function checkRoutePermission(request: FastifyRequest): void {
  if (!request.user) throw unauthenticated();
  const role = staffRoleOf(request.user.roles);
  if (!role) throw forbidden('Staff only');
  const permission = request.routeOptions.config.permission;
  if (role === 'owner') return;
  if (!permission) throw forbidden('Owners only');
  if (!hasPermission(request.user.roles, permission)) throw forbidden(`Your role (${role}) does not allow ${permission}`);
}

/** The most a staff member may refund in one go (cancelling a paid order refunds what was paid); null: no limit. */
export function refundLimitCents(roles: readonly string[], salesRefundLimitCents: number): number | null {
  return staffRoleOf(roles) === 'owner' ? null : salesRefundLimitCents;
}

/**
 * Money going back to a buyer (a refund, or the cancellation of a paid order): 403 REFUND_LIMIT
 * when the amount is above what the staff member's role may refund, 403 STEP_UP_REQUIRED when it
 * is above STEP_UP_ABOVE_CENTS and the password was not given again within the last minutes.
 */
export async function assertMayRefund(db: Db, request: FastifyRequest, amountCents: number, people: PeopleConfig): Promise<void> {
  const limit = refundLimitCents(request.user?.roles ?? [], people.salesRefundLimitCents);
  if (limit !== null && amountCents > limit) {
    throw new ApiError(403, 'REFUND_LIMIT', 'Refunds above your limit need an owner');
  }
  if (amountCents > people.stepUpAboveCents) await assertSteppedUp(db, request);
}
