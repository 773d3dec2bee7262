import { ErrorBodySchema as ErrorBody, isUuid, ROUTES } from '@boatshop/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  confirmErasure,
  exportArchive,
  PRIVACY_EXPORT_QUEUE,
  privacyStatus,
  recordConsent,
  requestErasure,
  requestExport,
} from '../../../../features/privacy/privacy-requests.js';
import { signOut } from '../../../../features/sessions/sessions.js';
import { ApiError, badRequest, notFound } from '../../../../lib/errors.js';

const routes = ROUTES.privacy;

/**
 * A shopper's own data (/api/account/privacy): what they agreed to, an export of everything the
 * shop holds about them, and erasure of the account, confirmed by an e-mailed link. Every route is
 * the signed-in shopper's own.
 */
const privacy: FastifyPluginAsyncTypebox = async (fastify) => {
  const { db } = fastify;
  const { publicUrl } = fastify.config;

  fastify.get(
    '/',
    {
      preHandler: fastify.requireUser,
      schema: {
        summary: "The shopper's consents, latest export and whether the account can be erased now",
        tags: ['privacy'],
        response: { [routes.status.status]: routes.status.response, 401: ErrorBody },
      },
    },
    async (request) => privacyStatus(db, request.user!.id),
  );

  fastify.put(
    '/consents',
    {
      preHandler: fastify.requireUser,
      schema: {
        summary: 'Agree to or withdraw from one topic; the wording shown is recorded with the answer',
        tags: ['privacy'],
        body: routes.setConsent.body,
        response: { [routes.setConsent.status]: routes.setConsent.response, 400: ErrorBody, 401: ErrorBody },
      },
    },
    async (request) => {
      await recordConsent(db, request.user!.id, request.body.topic, request.body.granted);
      return privacyStatus(db, request.user!.id);
    },
  );

  fastify.post(
    '/export',
    {
      preHandler: fastify.requireUser,
      schema: {
        summary: 'Prepare an archive of everything the shop holds about the shopper',
        description: 'A job builds it and e-mails a link that works for seven days; asking again while one is prepared answers that one.',
        tags: ['privacy'],
        response: { [routes.requestExport.status]: routes.requestExport.response, 401: ErrorBody },
      },
    },
    async (request, reply) => {
      const { id, created } = await requestExport(db, request.user!.id);
      if (created) await fastify.jobs.queue?.send(PRIVACY_EXPORT_QUEUE, {});
      const status = await privacyStatus(db, request.user!.id);
      return reply.code(202).send(status.export!.id === id ? status.export! : { ...status.export!, id });
    },
  );

  fastify.get(
    '/export/:id',
    {
      preHandler: fastify.requireUser,
      schema: {
        summary: "Download the archive the e-mailed link names (the owner's, signed in, within seven days)",
        tags: ['privacy'],
        params: routes.downloadExport.params,
        querystring: routes.downloadExport.query,
        response: { [routes.downloadExport.status]: routes.downloadExport.response, 401: ErrorBody, 404: ErrorBody },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const archive = isUuid(id) ? await exportArchive(db, request.user!.id, id, request.query.token) : undefined;
      if (!archive) throw notFound('This download link is unknown or has expired. Ask for a new export in your account.');
      return reply
        .header('content-disposition', `attachment; filename="boatshop-data-${id.slice(0, 8)}.json"`)
        .header('cache-control', 'no-store')
        .send(archive as { format: string });
    },
  );

  fastify.post(
    '/erasure',
    {
      preHandler: fastify.requireUser,
      schema: {
        summary: 'Ask for the account to be erased: a confirmation link is e-mailed',
        description: '409 ERASURE_BLOCKED with the reasons (an open order, a held boat, money under dispute) while it cannot be erased.',
        tags: ['privacy'],
        response: { [routes.requestErasure.status]: routes.requestErasure.response, 401: ErrorBody, 409: ErrorBody },
      },
    },
    async (request, reply) => {
      const user = request.user!;
      const { erasureBlockers: reasons } = await privacyStatus(db, user.id);
      if (reasons.length) throw new ApiError(409, 'ERASURE_BLOCKED', 'Your account cannot be erased yet.', { details: reasons });
      await requestErasure(db, { id: user.id, email: user.email, displayName: user.displayName }, publicUrl);
      return reply.code(202).send({ outcome: 'confirm-by-email' as const });
    },
  );

  fastify.post(
    '/erasure/confirm',
    {
      preHandler: fastify.requireUser,
      schema: {
        summary: "Erase the account with the e-mailed link's token; the session ends",
        tags: ['privacy'],
        body: routes.confirmErasure.body,
        response: { [routes.confirmErasure.status]: routes.confirmErasure.response, 400: ErrorBody, 401: ErrorBody, 409: ErrorBody },
      },
    },
    async (request, reply) => {
      const result = await confirmErasure(db, request.user!.id, request.body.token);
      if (result.outcome === 'invalid-link')
        throw badRequest('This erasure link is unknown, used or expired. Ask again from your account.');
      if (result.outcome === 'blocked') {
        throw new ApiError(409, 'ERASURE_BLOCKED', 'Your account cannot be erased yet.', { details: result.reasons });
      }
      await signOut(request, reply);
      return reply.code(204).send(null);
    },
  );
};

export default privacy;
