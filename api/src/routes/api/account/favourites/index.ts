import { ErrorBodySchema as ErrorBody, isUuid, ROUTES } from '@boatshop/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { addFavourite, favouriteIds, listFavourites, removeFavourite } from '../../../../features/keep/favourites.js';
import { notFound } from '../../../../lib/errors.js';

const routes = ROUTES.keep;

/**
 * A shopper's favourite boats (/api/account/favourites): their own only. PUT and DELETE are
 * idempotent, so a heart clicked twice or a retried request ends in the state asked for.
 */
const favourites: FastifyPluginAsyncTypebox = async (fastify) => {
  const { db } = fastify;
  const tags = ['favourites'];

  fastify.get(
    '/',
    {
      preHandler: fastify.requireUser,
      schema: {
        summary: "The shopper's favourite boats, the newest first",
        tags,
        response: { [routes.favourites.status]: routes.favourites.response, 401: ErrorBody },
      },
    },
    async (request) => ({ favourites: await listFavourites(db, request.user!.id) }),
  );

  fastify.get(
    '/ids',
    {
      preHandler: fastify.requireUser,
      schema: {
        summary: "The ids of the shopper's favourite boats (the hearts on cards)",
        tags,
        response: { [routes.favouriteIds.status]: routes.favouriteIds.response, 401: ErrorBody },
      },
    },
    async (request) => ({ productIds: await favouriteIds(db, request.user!.id) }),
  );

  fastify.put(
    '/:id',
    {
      preHandler: fastify.requireUser,
      schema: {
        summary: 'Keep a boat as a favourite (keeping it again changes nothing)',
        tags,
        params: routes.addFavourite.params,
        response: { [routes.addFavourite.status]: routes.addFavourite.response, 401: ErrorBody, 404: ErrorBody, 409: ErrorBody },
      },
    },
    async (request, reply) => {
      if (!isUuid(request.params.id)) throw notFound('Product not found');
      await addFavourite(db, request.user!.id, request.params.id);
      return reply.code(204).send(null);
    },
  );

  fastify.delete(
    '/:id',
    {
      preHandler: fastify.requireUser,
      schema: {
        summary: 'Forget a favourite (one not kept is no error)',
        tags,
        params: routes.removeFavourite.params,
        response: { [routes.removeFavourite.status]: routes.removeFavourite.response, 401: ErrorBody },
      },
    },
    async (request, reply) => {
      if (isUuid(request.params.id)) await removeFavourite(db, request.user!.id, request.params.id);
      return reply.code(204).send(null);
    },
  );
};

export default favourites;
