import { ErrorBodySchema as ErrorBody, isUuid, ROUTES } from '@boatshop/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { deleteSavedSearch, listSavedSearches, saveSearch } from '../../../../features/keep/saved-searches.js';
import { notFound } from '../../../../lib/errors.js';

const routes = ROUTES.keep;

/** A shopper's saved searches (/api/account/saved-searches): their own only; another's answers 404. */
const savedSearches: FastifyPluginAsyncTypebox = async (fastify) => {
  const { db } = fastify;
  const tags = ['saved searches'];

  fastify.get(
    '/',
    {
      preHandler: fastify.requireUser,
      schema: {
        summary: "The shopper's saved searches, the newest first",
        tags,
        response: { [routes.savedSearches.status]: routes.savedSearches.response, 401: ErrorBody },
      },
    },
    async (request) => ({ savedSearches: await listSavedSearches(db, request.user!.id) }),
  );

  fastify.post(
    '/',
    {
      preHandler: fastify.requireUser,
      schema: {
        summary: 'Save the search page’s choices under a name; with alerts, a daily e-mail of new matching boats',
        tags,
        body: routes.saveSearch.body,
        response: { [routes.saveSearch.status]: routes.saveSearch.response, 400: ErrorBody, 401: ErrorBody, 409: ErrorBody },
      },
    },
    async (request, reply) => reply.code(201).send(await saveSearch(db, request.user!.id, request.body)),
  );

  fastify.delete(
    '/:id',
    {
      preHandler: fastify.requireUser,
      schema: {
        summary: 'Delete a saved search and its alerts',
        tags,
        params: routes.removeSavedSearch.params,
        response: { [routes.removeSavedSearch.status]: routes.removeSavedSearch.response, 401: ErrorBody, 404: ErrorBody },
      },
    },
    async (request, reply) => {
      if (!isUuid(request.params.id)) throw notFound('This saved search is not yours or was deleted.');
      await deleteSavedSearch(db, request.user!.id, request.params.id);
      return reply.code(204).send(null);
    },
  );
};

export default savedSearches;
