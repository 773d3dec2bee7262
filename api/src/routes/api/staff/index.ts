import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorBodySchema as ErrorBody, ROUTES } from '@boatshop/contract';
import { toSessionUser } from '../../../features/auth/session-user.js';
import { acceptInvitation } from '../../../features/staff/staff.repository.js';
import { findUserById, rowToAuthUser } from '../../../features/users/users.repository.js';
import { ApiError, forbidden } from '../../../lib/errors.js';

const routes = ROUTES.staff;

const REFUSALS = {
  other_email: 'This invitation was sent to another e-mail address: sign in with that one',
  unverified: 'Confirm your e-mail address first (the link in the sign-up e-mail), then open the invitation again',
} as const;

/** The invited person's side of a staff invitation. */
const staff: FastifyPluginAsyncTypebox = async (fastify) => {
  fastify.post(
    '/invitations/accept',
    {
      preHandler: fastify.requireUser,
      schema: {
        summary: "Accept a staff invitation from the e-mail's link: the signed-in account takes the invited role",
        tags: ['auth'],
        body: routes.acceptInvitation.body,
        response: {
          [routes.acceptInvitation.status]: routes.acceptInvitation.response,
          400: ErrorBody,
          401: ErrorBody,
          403: ErrorBody,
          404: ErrorBody,
        },
      },
    },
    async (request) => {
      const outcome = await fastify.db.transaction().execute((trx) => acceptInvitation(trx, request.user!, request.body.token));
      if (!outcome.ok) {
        if (outcome.reason === 'unknown')
          throw new ApiError(404, 'INVITATION_INVALID', 'This invitation link is unknown, used, withdrawn or expired');
        throw forbidden(REFUSALS[outcome.reason]);
      }
      const row = await findUserById(fastify.db, request.user!.id);
      return { user: toSessionUser(rowToAuthUser(row!)) };
    },
  );
};

export default staff;
