import { ErrorBodySchema as ErrorBody, isUuid, ROUTES } from '@boatshop/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  createSavedAddress,
  deleteSavedAddress,
  listSavedAddresses,
  makeDefaultAddress,
  updateSavedAddress,
} from '../../../../features/addresses/saved-addresses.js';
import { notFound } from '../../../../lib/errors.js';

const routes = ROUTES.addresses;

/** An id that is not a UUID names no address: the same 404 as another account's. */
function checkedId(id: string): string {
  if (!isUuid(id)) throw notFound('This address is not in your address book.');
  return id;
}

/**
 * A shopper's address book (/api/account/addresses): saved shipping and billing addresses, one
 * default of each, offered at checkout. Every route is the signed-in shopper's own; another
 * account's address answers 404.
 */
const addresses: FastifyPluginAsyncTypebox = async (fastify) => {
  const { db } = fastify;
  const tags = ['addresses'];

  fastify.get(
    '/',
    {
      preHandler: fastify.requireUser,
      schema: {
        summary: "The shopper's saved addresses, each kind's default first",
        tags,
        response: { [routes.list.status]: routes.list.response, 401: ErrorBody },
      },
    },
    async (request) => ({ addresses: await listSavedAddresses(db, request.user!.id) }),
  );

  fastify.post(
    '/',
    {
      preHandler: fastify.requireUser,
      schema: {
        summary: 'Save an address; the first of its kind becomes the default',
        tags,
        body: routes.create.body,
        response: { [routes.create.status]: routes.create.response, 400: ErrorBody, 401: ErrorBody, 409: ErrorBody },
      },
    },
    async (request, reply) => reply.code(201).send(await createSavedAddress(db, request.user!.id, request.body)),
  );

  fastify.put(
    '/:id',
    {
      preHandler: fastify.requireUser,
      schema: {
        summary: 'Change a saved address (orders keep the address they were placed with)',
        tags,
        params: routes.update.params,
        body: routes.update.body,
        response: { [routes.update.status]: routes.update.response, 400: ErrorBody, 401: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) => updateSavedAddress(db, request.user!.id, checkedId(request.params.id), request.body),
  );

  fastify.delete(
    '/:id',
    {
      preHandler: fastify.requireUser,
      schema: {
        summary: 'Delete a saved address; a deleted default is replaced by the newest of its kind',
        tags,
        params: routes.remove.params,
        response: { [routes.remove.status]: routes.remove.response, 401: ErrorBody, 404: ErrorBody },
      },
    },
    async (request, reply) => {
      await deleteSavedAddress(db, request.user!.id, checkedId(request.params.id));
      return reply.code(204).send(null);
    },
  );

  fastify.put(
    '/:id/default',
    {
      preHandler: fastify.requireUser,
      schema: {
        summary: 'Make an address the default of its kind',
        tags,
        params: routes.makeDefault.params,
        response: { [routes.makeDefault.status]: routes.makeDefault.response, 401: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) => ({ addresses: await makeDefaultAddress(db, request.user!.id, checkedId(request.params.id)) }),
  );
};

export default addresses;
