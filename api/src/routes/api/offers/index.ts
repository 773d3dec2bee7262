import { ErrorBodySchema as ErrorBody, isUuid, ROUTES, type Offer } from '@boatshop/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { queueMail } from '../../../features/leads/lead-mails.js';
import { claimGuestLeads, findShopperEnquiry } from '../../../features/leads/leads.repository.js';
import { offerAnsweredMail } from '../../../features/offers/offer-mails.js';
import { acceptOffer, counterOffer, declineOffer } from '../../../features/offers/offer-answers.js';
import { findOfferOfShopper, listOffersOfLead } from '../../../features/offers/offers.repository.js';
import { perIpRateLimit } from '../../../features/auth/throttle.js';
import { notFound } from '../../../lib/errors.js';

const routes = ROUTES.offers;

/**
 * The shopper's side of the shop's offers (/api/offers): read them in a conversation, accept,
 * decline, or make one counter-offer. Only the buyer of the offer's own conversation sees or
 * answers it: anyone else's is 404. An accepted offer is paid through POST /api/payments/create
 * with its offerId, at the agreed price.
 */
const offers: FastifyPluginAsyncTypebox = async (fastify) => {
  const { db } = fastify;
  const { publicUrl, sales } = fastify.config;
  const PER_IP = perIpRateLimit(sales.perIpPerMinute);
  const shopperSchema = { tags: ['offers'], security: [{ session: [] }] };
  const answers = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody, 410: ErrorBody, 429: ErrorBody };

  const ownOffer = async (userId: string, id: string): Promise<Offer> => {
    const offer = isUuid(id) ? await findOfferOfShopper(db, userId, id) : undefined;
    if (!offer) throw notFound('Offer not found');
    return offer;
  };

  fastify.get(
    '/',
    {
      preHandler: fastify.requireUser,
      schema: {
        ...shopperSchema,
        summary: "The offers in one of the caller's conversations, newest first",
        querystring: routes.list.query,
        response: { [routes.list.status]: routes.list.response, 400: ErrorBody, 401: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) => {
      const user = request.user!;
      await claimGuestLeads(db, user);
      const { enquiryId } = request.query;
      const enquiry = isUuid(enquiryId) ? await findShopperEnquiry(db, user.id, enquiryId) : undefined;
      if (!enquiry) throw notFound('Conversation not found');
      return { data: await listOffersOfLead(db, enquiry.id) };
    },
  );

  fastify.get(
    '/:id',
    {
      preHandler: fastify.requireUser,
      schema: {
        ...shopperSchema,
        summary: "One of the caller's offers; anyone else's is 404",
        params: routes.get.params,
        response: { [routes.get.status]: routes.get.response, 401: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) => ownOffer(request.user!.id, request.params.id),
  );

  const respond = (path: 'accept' | 'decline' | 'counter', summary: string, description: string) => {
    const route = routes[path];
    fastify.post(
      `/:id/${path}`,
      {
        preHandler: fastify.requireUser,
        config: PER_IP,
        schema: {
          ...shopperSchema,
          summary,
          description,
          params: route.params,
          ...(path === 'counter' ? { body: routes.counter.body } : {}),
          response: { [route.status]: route.response, ...answers },
        },
      },
      async (request) => {
        const user = request.user!;
        const before = await ownOffer(user.id, request.params.id);
        const body = (request.body ?? {}) as { priceCents?: number; message?: string };
        return db.transaction().execute(async (trx) => {
          const changed =
            path === 'accept'
              ? await acceptOffer(trx, before.id, user.id)
              : path === 'decline'
                ? await declineOffer(trx, before.id, user.id)
                : await counterOffer(trx, before.id, user.id, { priceCents: body.priceCents!, message: body.message?.trim() || null });
          const after = (await findOfferOfShopper(trx, user.id, before.id))!;
          if (changed) {
            await queueMail(
              trx,
              offerAnsweredMail({
                to: sales.inbox,
                buyerName: user.displayName,
                productName: after.productName,
                answer: path === 'accept' ? 'accepted' : path === 'decline' ? 'declined' : 'countered',
                priceCents: path === 'counter' ? after.counterPriceCents! : after.priceCents,
                message: path === 'counter' ? after.counterMessage : null,
                link: `${publicUrl}/admin/leads/${after.leadId}`,
              }),
            );
          }
          return after;
        });
      },
    );
  };

  respond(
    'accept',
    'Accept the offer: the boat is held for the caller until the offer expires; pay it with POST /api/payments/create and its offerId',
    'A repeated accept answers the accepted offer and changes nothing. 410 OFFER_EXPIRED after its last valid day; ' +
      '409 OFFER_CLOSED when declined or countered; 409 OUT_OF_STOCK when the boat was sold or reserved meanwhile.',
  );
  respond('decline', 'Decline the offer', '410 OFFER_EXPIRED after its last valid day; 409 OFFER_CLOSED when answered already.');
  respond(
    'counter',
    'Make the one counter-offer, below the offer’s price; the shop accepts or declines it',
    '409 COUNTER_USED when a counter-offer was made already; 400 at or above the offer’s price; 410 OFFER_EXPIRED.',
  );
};

export default offers;
