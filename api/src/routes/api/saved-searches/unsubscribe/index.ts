import { ErrorBodySchema as ErrorBody, ROUTES } from '@boatshop/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { stopAlerts } from '../../../../features/keep/saved-searches.js';
import { verifyUnsubscribeToken } from '../../../../features/keep/unsubscribe-token.js';
import { ApiError, notFound } from '../../../../lib/errors.js';

const route = ROUTES.keep.unsubscribe;

/**
 * The alert e-mails' unsubscribe address: the signed token alone says which saved search, so it
 * works without signing in and is exempt from the CSRF check (plugins/app/csrf.ts). A mail
 * client's one-click POST (RFC 8058) sends `List-Unsubscribe=One-Click` as a form; the shop's
 * page posts without a body. Stopping twice answers the same.
 */
const unsubscribe: FastifyPluginAsyncTypebox = async (fastify) => {
  // RFC 8058's body, read as text and not needed: the token in the address is the request.
  for (const type of ['application/x-www-form-urlencoded', 'multipart/form-data']) {
    fastify.addContentTypeParser(type, { parseAs: 'string', bodyLimit: 1024 }, (_request, body, done) => done(null, body));
  }

  fastify.post(
    '/',
    {
      schema: {
        summary: 'Stop one saved search’s alert e-mails (the signed link of its e-mails; no sign-in)',
        tags: ['saved searches'],
        querystring: route.query,
        response: { [route.status]: route.response, 400: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) => {
      const id = verifyUnsubscribeToken(fastify.config.alerts.unsubscribeSecret, request.query.token);
      if (!id)
        throw new ApiError(
          400,
          'INVALID_TOKEN',
          'This unsubscribe link is not valid. Open it again from the e-mail, or sign in and delete the saved search.',
        );
      const name = await stopAlerts(fastify.db, id);
      if (name === null) throw notFound('This saved search was deleted: it sends no more e-mails.');
      return { name };
    },
  );
};

export default unsubscribe;
