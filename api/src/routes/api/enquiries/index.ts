import { ErrorBodySchema as ErrorBody, isUuid, ROUTES } from '@boatshop/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { randomBytes } from 'node:crypto';
import { hashEmailToken } from '../../../features/auth/email-tokens.js';
import { looksLikeEmail } from '../../../features/auth/session-user.js';
import { enquiryConfirmationMail, newEnquiryMail, queueMail, shopperReplyMail } from '../../../features/leads/lead-mails.js';
import {
  addMessage,
  claimGuestLeads,
  confirmLead,
  countRecentEnquiries,
  countRecentShopperMessages,
  findShopperEnquiry,
  insertLead,
  listShopperEnquiries,
} from '../../../features/leads/leads.repository.js';
import { perIpRateLimit } from '../../../features/auth/throttle.js';
import { findProductById } from '../../../features/products/products.repository.js';
import { ApiError, badRequest, notFound } from '../../../lib/errors.js';

const routes = ROUTES.enquiries;

/** A guest's confirmation link: long enough for an inbox checked once a day. */
const CONFIRM_TTL_MS = 24 * 60 * 60 * 1000;

const tooMany = (message: string) => new ApiError(429, 'RATE_LIMITED', message);

/**
 * A shopper's questions about a boat and the conversations that follow (/api/enquiries). A guest
 * asks with name and e-mail and must open the e-mailed link before the shop sees anything; a
 * signed-in shopper asks directly. Conversations are the account's own: anyone else's is 404.
 */
const enquiries: FastifyPluginAsyncTypebox = async (fastify) => {
  const { db } = fastify;
  const { publicUrl, sales } = fastify.config;
  const leadLink = (id: string) => `${publicUrl}/admin/leads/${id}`;
  // Per client address, on top of the limits per e-mail address and account.
  const PER_IP = perIpRateLimit(sales.perIpPerMinute);

  fastify.post(
    '/',
    {
      config: PER_IP,
      schema: {
        summary: 'Ask a question about a boat',
        description:
          "A signed-in shopper's question reaches the shop at once (outcome received); a guest's after the e-mailed link is opened " +
          '(outcome confirm-by-email). 404 unknown boat, 400 a guest without name or a valid e-mail, 429 too many enquiries from this address or account.',
        tags: ['enquiries'],
        body: routes.create.body,
        response: { [routes.create.status]: routes.create.response, 400: ErrorBody, 403: ErrorBody, 404: ErrorBody, 429: ErrorBody },
      },
    },
    async (request, reply) => {
      const { productId, website } = request.body;
      const message = request.body.message.trim();
      const user = request.user;
      // The honeypot: people never see the field, a bot fills it. Answered like a success, nothing kept.
      if (website) return reply.code(202).send({ outcome: 'confirm-by-email', id: null });

      const name = user ? user.displayName : (request.body.name ?? '').trim();
      const email = user ? user.email : (request.body.email ?? '').trim();
      const problems: string[] = [];
      if (!message) problems.push('Please write your question.');
      if (!user && !name) problems.push('Please give your name.');
      if (!user && !looksLikeEmail(email)) problems.push('Please give a valid e-mail address.');
      if (problems.length > 0) throw badRequest(problems.join(' '), problems);

      const product = isUuid(productId) ? await findProductById(db, productId) : undefined;
      if (!product) throw notFound('Product not found');

      if ((await countRecentEnquiries(db, email, user?.id ?? null)) >= sales.enquiriesPerHour) {
        throw tooMany('You have sent several questions in the last hour. Please wait a little before asking again.');
      }

      const token = user ? null : randomBytes(32).toString('base64url');
      const lead = await db.transaction().execute(async (trx) => {
        const row = await insertLead(trx, {
          productId: product.id,
          productName: product.name,
          userId: user?.id ?? null,
          buyerName: name,
          email,
          message,
          clientAddress: request.ip,
          confirmation: token ? { tokenHash: hashEmailToken(token), expiresAt: new Date(Date.now() + CONFIRM_TTL_MS) } : null,
        });
        if (token) {
          const link = `${publicUrl}/enquiries/confirm?token=${encodeURIComponent(token)}`;
          await queueMail(trx, enquiryConfirmationMail({ to: email, name, productName: product.name, link }));
        } else {
          await queueMail(
            trx,
            newEnquiryMail({ to: sales.inbox, buyerName: name, email, productName: product.name, message, link: leadLink(row.id) }),
          );
        }
        return row;
      });
      return reply.code(202).send(token ? { outcome: 'confirm-by-email', id: null } : { outcome: 'received', id: lead.id });
    },
  );

  fastify.post(
    '/confirm',
    {
      config: PER_IP,
      schema: {
        summary: "Confirm a guest's question with the e-mailed link's token; the shop receives it then",
        description: 'The link works once: 404 LINK_INVALID for an unknown, used or expired token.',
        tags: ['enquiries'],
        body: routes.confirm.body,
        response: { [routes.confirm.status]: routes.confirm.response, 400: ErrorBody, 403: ErrorBody, 404: ErrorBody, 429: ErrorBody },
      },
    },
    async (request) => {
      const lead = await db.transaction().execute(async (trx) => {
        const row = await confirmLead(trx, hashEmailToken(request.body.token));
        if (!row) return undefined;
        const first = await trx
          .selectFrom('lead_messages')
          .select('body')
          .where('lead_id', '=', row.id)
          .orderBy('created_at')
          .executeTakeFirstOrThrow();
        await queueMail(
          trx,
          newEnquiryMail({
            to: sales.inbox,
            buyerName: row.buyer_name,
            email: row.email,
            productName: row.product_name,
            message: first.body,
            link: leadLink(row.id),
          }),
        );
        return row;
      });
      if (!lead) throw new ApiError(404, 'LINK_INVALID', 'This confirmation link is unknown, used already or expired.');
      return { productName: lead.product_name };
    },
  );

  fastify.get(
    '/',
    {
      preHandler: fastify.requireUser,
      schema: {
        summary: "The caller's conversations, latest activity first; a confirmed guest's of the same proven e-mail included",
        tags: ['enquiries'],
        security: [{ session: [] }],
        response: { [routes.list.status]: routes.list.response, 401: ErrorBody },
      },
    },
    async (request) => {
      await claimGuestLeads(db, request.user!);
      return { data: await listShopperEnquiries(db, request.user!.id) };
    },
  );

  fastify.get(
    '/:id',
    {
      preHandler: fastify.requireUser,
      schema: {
        summary: "One of the caller's conversations (never the shop's internal notes); anyone else's is 404",
        tags: ['enquiries'],
        security: [{ session: [] }],
        params: routes.get.params,
        response: { [routes.get.status]: routes.get.response, 401: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) => {
      const { id } = request.params;
      await claimGuestLeads(db, request.user!);
      const enquiry = isUuid(id) ? await findShopperEnquiry(db, request.user!.id, id) : undefined;
      if (!enquiry) throw notFound('Conversation not found');
      return enquiry;
    },
  );

  fastify.post(
    '/:id/messages',
    {
      preHandler: fastify.requireUser,
      config: PER_IP,
      schema: {
        summary: 'Reply in one of the caller’s conversations; the shop hears of it by e-mail',
        tags: ['enquiries'],
        security: [{ session: [] }],
        params: routes.reply.params,
        body: routes.reply.body,
        response: {
          [routes.reply.status]: routes.reply.response,
          400: ErrorBody,
          401: ErrorBody,
          403: ErrorBody,
          404: ErrorBody,
          429: ErrorBody,
        },
      },
    },
    async (request) => {
      const user = request.user!;
      const { id } = request.params;
      const body = request.body.body.trim();
      const enquiry = isUuid(id) ? await findShopperEnquiry(db, user.id, id) : undefined;
      if (!enquiry) throw notFound('Conversation not found');
      if (!body) throw badRequest('Please write your message.', ['Please write your message.']);
      if ((await countRecentShopperMessages(db, user.id)) >= sales.messagesPerHour) {
        throw tooMany('You have sent many messages in the last hour. Please wait a little before writing again.');
      }
      await db.transaction().execute(async (trx) => {
        await addMessage(trx, { leadId: id, author: 'shopper', authorUserId: user.id, body });
        await queueMail(
          trx,
          shopperReplyMail({
            to: sales.inbox,
            buyerName: user.displayName,
            productName: enquiry.productName,
            message: body,
            link: leadLink(id),
          }),
        );
      });
      return (await findShopperEnquiry(db, user.id, id))!;
    },
  );
};

export default enquiries;
