import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorBodySchema as ErrorBody, ROUTES } from '@boatshop/contract';
import { passwordMatches } from '../../../../features/auth/credentials.js';
import { clearAttempts, countAttempt, perIpRateLimit } from '../../../../features/auth/throttle.js';
import { markSteppedUp, stepUpFreshUntil } from '../../../../features/staff/step-up.js';
import { findUserById } from '../../../../features/users/users.repository.js';
import { ApiError } from '../../../../lib/errors.js';

const routes = ROUTES.staff;

/** Step-up: the password again before large refunds and cancellations, role changes and exports. */
const stepUp: FastifyPluginAsyncTypebox = async (fastify) => {
  fastify.get(
    '/',
    {
      preHandler: fastify.requireUser,
      schema: {
        summary: 'Until when sensitive actions go through without asking for the password again',
        tags: ['auth'],
        response: { [routes.stepUpStatus.status]: routes.stepUpStatus.response, 401: ErrorBody },
      },
    },
    async (request) => {
      const until = await stepUpFreshUntil(fastify.db, request.sessionId!);
      return { freshUntil: until?.toISOString() ?? null };
    },
  );

  fastify.post(
    '/',
    {
      preHandler: fastify.requireUser,
      config: perIpRateLimit(fastify.config.authRateLimitPerMinute),
      schema: {
        summary: "Give the password again: this session's sensitive actions go through for the next 5 minutes",
        description:
          'An account without a password (provider sign-in only) signs in again with the provider instead: a new session is fresh.',
        tags: ['auth'],
        body: routes.stepUp.body,
        response: { [routes.stepUp.status]: routes.stepUp.response, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 429: ErrorBody },
      },
    },
    async (request) => {
      const signedIn = request.user!;
      // Counted like sign-ins: a stolen session must not become a way to guess the password.
      await countAttempt(fastify.db, 'login', { email: signedIn.email, clientAddress: request.ip });
      const user = await findUserById(fastify.db, signedIn.id);
      if (!user?.password_hash) throw new ApiError(400, 'NO_PASSWORD', 'This account has no password: sign in again with your provider');
      if (!(await passwordMatches(user, request.body.password))) throw new ApiError(403, 'WRONG_PASSWORD', 'That password is wrong.');
      await clearAttempts(fastify.db, 'login', user.email, request.ip);
      const until = await markSteppedUp(fastify.db, request.sessionId!);
      return { freshUntil: until.toISOString() };
    },
  );
};

export default stepUp;
