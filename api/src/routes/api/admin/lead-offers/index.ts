import { ErrorBodySchema as ErrorBody, isUuid, ROUTES, type Offer } from '@boatshop/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { Transaction } from 'kysely';
import type { Database } from '../../../../db/database.js';
import { recordAudit } from '../../../../features/audit/audit-log.js';
import { queueMail } from '../../../../features/leads/lead-mails.js';
import { findLead } from '../../../../features/leads/leads.repository.js';
import { counterAnsweredMail, offerSentMail } from '../../../../features/offers/offer-mails.js';
import { acceptCounter, declineCounter } from '../../../../features/offers/offer-answers.js';
import { findOffer, insertOffer, listOffersOfLead } from '../../../../features/offers/offers.repository.js';
import { badRequest, conflict, notFound } from '../../../../lib/errors.js';

const routes = ROUTES.admin.offers;

/** Routes under /api/admin/leads/:id, next to the lead's own routes. */
export const prefixOverride = '/api/admin/leads';

/** The furthest day an offer may run: a year from today. */
const MAX_VALIDITY_DAYS = 365;

/** YYYY-MM-DD of today (UTC), plus `days`. */
function utcDay(days = 0): string {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + days)).toISOString().slice(0, 10);
}

/** A real calendar day (2026-02-30 is not), from today (UTC) to a year ahead. */
function checkValidUntil(day: string): string {
  const parsed = new Date(`${day}T00:00:00Z`);
  if (Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 10) !== day) {
    throw badRequest('The validity date is not a real day.', ['The validity date is not a real day.']);
  }
  if (day < utcDay()) throw badRequest('The validity date is in the past.', ['The validity date is in the past.']);
  if (day > utcDay(MAX_VALIDITY_DAYS)) {
    throw badRequest('An offer may run for a year at most.', ['An offer may run for a year at most.']);
  }
  return day;
}

/**
 * The shop's offers on a lead: send one (price, validity, conditions), and answer the buyer's
 * counter-offer. admin/autohooks.ts admits staff only; reading needs leads.read, the rest
 * offers.write. Each change is recorded in the audit log with recordAudit in its transaction.
 */
const leadOffers: FastifyPluginAsyncTypebox = async (fastify) => {
  const { db } = fastify;
  const { publicUrl } = fastify.config;
  const adminSchema = { tags: ['admin', 'offers'], security: [{ session: [] }] };
  const denied = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };

  const leadOr404 = async (id: string) => {
    const lead = isUuid(id) ? await findLead(db, id) : undefined;
    if (!lead) throw notFound('Lead not found');
    return lead;
  };

  const offerOfLead = async (leadId: string, offerId: string): Promise<Offer> => {
    const offer = isUuid(offerId) ? await findOffer(db, offerId) : undefined;
    if (!offer || offer.leadId !== leadId.toLowerCase()) throw notFound('Offer not found');
    return offer;
  };

  const audit = (trx: Transaction<Database>, request: FastifyRequest, action: string, before: Offer | null, after: Offer) =>
    recordAudit(trx, {
      request,
      action,
      target: { type: 'offer', id: after.id },
      status: 200,
      before,
      after,
      details: { leadId: after.leadId },
    });

  fastify.get(
    '/:id/offers',
    {
      config: { permission: 'leads.read' },
      schema: {
        ...adminSchema,
        summary: "The lead's offers, newest first",
        params: routes.list.params,
        response: { [routes.list.status]: routes.list.response, ...denied },
      },
    },
    async (request) => {
      const lead = await leadOr404(request.params.id);
      return { data: await listOffersOfLead(db, lead.id) };
    },
  );

  fastify.post(
    '/:id/offers',
    {
      config: { permission: 'offers.write' },
      schema: {
        ...adminSchema,
        summary: 'Send the buyer an offer: price (VAT included), last valid day, conditions; e-mailed to them',
        description:
          '409 OFFER_OPEN while another offer of the lead is open (sent, countered, or accepted and valid); 409 LEAD_WON; ' +
          '409 PRODUCT_GONE when the boat left the catalogue; 400 a validity date in the past or beyond a year.',
        params: routes.send.params,
        body: routes.send.body,
        response: { [routes.send.status]: routes.send.response, ...denied, 409: ErrorBody },
      },
    },
    async (request, reply) => {
      const lead = await leadOr404(request.params.id);
      const validUntil = checkValidUntil(request.body.validUntil);
      if (!lead.product_id) throw conflict('PRODUCT_GONE', 'The boat of this lead is no longer in the catalogue.');
      const conditions = request.body.conditions.trim();
      const offer = await db.transaction().execute(async (trx) => {
        const id = await insertOffer(trx, {
          leadId: lead.id,
          productId: lead.product_id!,
          productName: lead.product_name,
          priceCents: request.body.priceCents,
          validUntil,
          conditions,
          adminId: request.user!.id,
        });
        const sent = (await findOffer(trx, id))!;
        await queueMail(
          trx,
          offerSentMail({
            to: lead.email,
            buyerName: lead.buyer_name,
            productName: lead.product_name,
            priceCents: sent.priceCents,
            validUntil,
            conditions,
            link: lead.user_id ? `${publicUrl}/messages/${lead.id}` : `${publicUrl}/registration`,
            hasAccount: lead.user_id !== null,
          }),
        );
        await audit(trx, request, 'offer.send', null, sent);
        return sent;
      });
      return reply.code(201).send(offer);
    },
  );

  for (const [path, accepted] of [
    ['accept-counter', true],
    ['decline-counter', false],
  ] as const) {
    const route = accepted ? routes.acceptCounter : routes.declineCounter;
    fastify.post(
      `/:id/offers/:offerId/${path}`,
      {
        config: { permission: 'offers.write' },
        schema: {
          ...adminSchema,
          summary: accepted
            ? "Accept the buyer's counter-offer: it becomes the agreed price and the boat is held for them"
            : "Decline the buyer's counter-offer: the offer stands at its own price until it expires",
          description: '409 OFFER_CLOSED when no counter-offer waits; 410 OFFER_EXPIRED; 409 OUT_OF_STOCK when the boat is gone.',
          params: route.params,
          response: { [route.status]: route.response, ...denied, 409: ErrorBody, 410: ErrorBody },
        },
      },
      async (request) => {
        const lead = await leadOr404(request.params.id);
        const before = await offerOfLead(lead.id, request.params.offerId);
        return db.transaction().execute(async (trx) => {
          const changed = accepted
            ? await acceptCounter(trx, before.id, request.user!.id)
            : await declineCounter(trx, before.id, request.user!.id);
          const after = (await findOffer(trx, before.id))!;
          if (!changed) return after;
          await queueMail(
            trx,
            counterAnsweredMail({
              to: lead.email,
              buyerName: lead.buyer_name,
              productName: lead.product_name,
              accepted,
              counterCents: after.counterPriceCents ?? 0,
              offerCents: after.priceCents,
              validUntil: after.validUntil,
              link: `${publicUrl}/messages/${lead.id}`,
            }),
          );
          await audit(trx, request, accepted ? 'offer.accept-counter' : 'offer.decline-counter', before, after);
          return after;
        });
      },
    );
  }
};

export default leadOffers;
