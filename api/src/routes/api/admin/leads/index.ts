import { ErrorBodySchema as ErrorBody, isUuid, ROUTES } from '@boatshop/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { queueMail, shopAnswerMail } from '../../../../features/leads/lead-mails.js';
import {
  addMessage,
  addNote,
  findAdminLead,
  funnelByMonth,
  listAdminLeads,
  markLeadLost,
} from '../../../../features/leads/leads.repository.js';
import { ADMIN_LEADS_PAGE_SIZE } from '@boatshop/contract';
import { badRequest, conflict, notFound } from '../../../../lib/errors.js';

const routes = ROUTES.admin.leads;

const leadNotFound = () => notFound('Lead not found');

/** The text without its surrounding blanks; blanks alone are refused. */
function textOrRefuse(value: string): string {
  const text = value.trim();
  if (!text) throw badRequest('Please write something.', ['Please write something.']);
  return text;
}

/**
 * The shop's leads inbox: every confirmed enquiry with its state and conversation, internal
 * notes, the timeline, and the actions on a lead. The admin folder's autohooks.ts admits admins
 * only; each route names the permission it needs. Each mutation is one function below, so the
 * audit hook can be added in one line.
 */
const leads: FastifyPluginAsyncTypebox = async (fastify) => {
  const { db } = fastify;
  const { publicUrl } = fastify.config;

  const leadOr404 = async (id: string) => {
    const lead = isUuid(id) ? await findAdminLead(db, id) : undefined;
    if (!lead) throw leadNotFound();
    return lead;
  };

  const adminSchema = { tags: ['admin', 'leads'], security: [{ session: [] }] };

  fastify.get(
    '/',
    {
      config: { permission: 'leads.read' },
      schema: {
        ...adminSchema,
        summary: 'The leads inbox: latest activity first, by state, waiting for an answer, or a search',
        querystring: routes.list.query,
        response: { [routes.list.status]: routes.list.response, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody },
      },
    },
    async (request) => {
      const { data, total } = await listAdminLeads(db, request.query);
      return { data, total, page: request.query.page, pageSize: ADMIN_LEADS_PAGE_SIZE };
    },
  );

  fastify.get(
    '/funnel',
    {
      config: { permission: 'leads.read' },
      schema: {
        ...adminSchema,
        summary: 'Enquiries, viewings, offers and orders per calendar month (UTC), newest first',
        querystring: routes.funnel.query,
        response: { [routes.funnel.status]: routes.funnel.response, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody },
      },
    },
    async (request) => ({ data: await funnelByMonth(db, request.query.months) }),
  );

  fastify.get(
    '/:id',
    {
      config: { permission: 'leads.read' },
      schema: {
        ...adminSchema,
        summary: 'One lead: the conversation, the internal notes and the timeline',
        params: routes.get.params,
        response: { [routes.get.status]: routes.get.response, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) => leadOr404(request.params.id),
  );

  async function replyToLead(leadId: string, adminId: string, body: string) {
    const lead = await leadOr404(leadId);
    await db.transaction().execute(async (trx) => {
      await addMessage(trx, { leadId, author: 'shop', authorUserId: adminId, body });
      await queueMail(
        trx,
        shopAnswerMail({
          to: lead.email,
          buyerName: lead.buyerName,
          productName: lead.productName,
          message: body,
          link: lead.hasAccount ? `${publicUrl}/messages/${leadId}` : `${publicUrl}/registration`,
          hasAccount: lead.hasAccount,
        }),
      );
    });
  }

  fastify.post(
    '/:id/messages',
    {
      config: { permission: 'leads.write' },
      schema: {
        ...adminSchema,
        summary: 'Answer the buyer; they get it by e-mail and in their account. A new lead becomes answered.',
        params: routes.reply.params,
        body: routes.reply.body,
        response: { [routes.reply.status]: routes.reply.response, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) => {
      await replyToLead(request.params.id, request.user!.id, textOrRefuse(request.body.body));
      return leadOr404(request.params.id);
    },
  );

  async function noteOnLead(leadId: string, adminId: string, body: string) {
    await leadOr404(leadId);
    await addNote(db, leadId, adminId, textOrRefuse(body));
  }

  fastify.post(
    '/:id/notes',
    {
      config: { permission: 'leads.write' },
      schema: {
        ...adminSchema,
        summary: 'An internal note on the lead: staff only, never shown to the buyer',
        params: routes.note.params,
        body: routes.note.body,
        response: { [routes.note.status]: routes.note.response, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) => {
      await noteOnLead(request.params.id, request.user!.id, request.body.body);
      return leadOr404(request.params.id);
    },
  );

  async function markLost(leadId: string, adminId: string, reason: string) {
    await leadOr404(leadId);
    const marked = await db.transaction().execute((trx) => markLeadLost(trx, leadId, reason, adminId));
    if (!marked) throw conflict('LEAD_WON', 'This lead ended in an order; it cannot be marked lost.');
  }

  fastify.post(
    '/:id/lost',
    {
      config: { permission: 'leads.write' },
      schema: {
        ...adminSchema,
        summary: 'Mark the lead lost, with the reason; 409 LEAD_WON when it ended in an order',
        params: routes.markLost.params,
        body: routes.markLost.body,
        response: {
          [routes.markLost.status]: routes.markLost.response,
          400: ErrorBody,
          401: ErrorBody,
          403: ErrorBody,
          404: ErrorBody,
          409: ErrorBody,
        },
      },
    },
    async (request) => {
      await markLost(request.params.id, request.user!.id, textOrRefuse(request.body.reason));
      return leadOr404(request.params.id);
    },
  );
};

export default leads;
