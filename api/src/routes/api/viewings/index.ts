import { ErrorBodySchema as ErrorBody, isUuid, ROUTES } from '@boatshop/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { perIpRateLimit } from '../../../features/auth/throttle.js';
import { queueMail } from '../../../features/leads/lead-mails.js';
import { claimGuestViewings, countRecentBookings } from '../../../features/viewings/guest-viewings.js';
import { localLabel } from '../../../features/viewings/slots.js';
import { announceViewing, placeFor, slotOr400, slotTakenError, viewingFacts } from '../../../features/viewings/viewing-announce.js';
import { viewingCancelledMail, viewingForShopMail } from '../../../features/viewings/viewing-mails.js';
import {
  bookViewing,
  cancelViewing,
  findViewingOfUser,
  freeSlotsOf,
  isSlotTaken,
  listViewingsOfUser,
  rescheduleViewing,
  toViewing,
} from '../../../features/viewings/viewings.repository.js';
import { ApiError, notFound } from '../../../lib/errors.js';

const routes = ROUTES.viewings;

/**
 * Viewings and sea trials of a boat at its marina (/api/viewings): the free slots on the marina's
 * clock (anyone), booking, rescheduling and cancelling (signed in, one's own bookings only:
 * anyone else's is 404; a guest books through /api/viewings/guest). Two shoppers taking the same
 * time: the database's exclusion constraint lets one through; the other gets 409 SLOT_TAKEN with
 * the next free times.
 */
const viewings: FastifyPluginAsyncTypebox = async (fastify) => {
  const { db } = fastify;
  const { publicUrl, sales } = fastify.config;
  const PER_IP = perIpRateLimit(sales.perIpPerMinute);
  const tags = ['viewings'];
  const signedIn = { tags, security: [{ session: [] }] };
  const manageLink = (id: string) => `${publicUrl}/viewings/${id}`;
  const leadLink = (id: string | null) => (id ? `${publicUrl}/admin/leads/${id}` : `${publicUrl}/admin/leads`);
  const announce = { publicUrl, inbox: sales.inbox };

  fastify.get(
    '/slots',
    {
      schema: {
        tags,
        summary: "The boat's marina and its free slots of that kind (a viewing unless asked) for the coming weeks, on the marina's clock",
        description:
          '404 VIEWINGS_UNAVAILABLE when the boat lies where the shop has no viewing calendar; 404 SEA_TRIALS_UNAVAILABLE for sea trials of a boat that offers none.',
        querystring: routes.slots.query,
        response: { [routes.slots.status]: routes.slots.response, 400: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) => {
      const { productId } = request.query;
      const kind = request.query.kind ?? 'viewing';
      const place = await placeFor(db, productId, kind);
      const { location, slots } = await freeSlotsOf(db, place.location_id, new Date(), undefined, kind);
      return {
        place: { marina: location.marina, address: location.address, timeZone: location.time_zone },
        kind,
        minutes: kind === 'sea_trial' ? location.sea_trial_minutes : location.slot_minutes,
        seaTrials: place.sea_trials,
        slots: slots.map((slot) => ({
          startsAt: slot.startsAt.toISOString(),
          endsAt: slot.endsAt.toISOString(),
          label: localLabel(slot.startsAt, location.time_zone),
        })),
      };
    },
  );

  fastify.post(
    '/',
    {
      preHandler: fastify.requireUser,
      config: PER_IP,
      schema: {
        ...signedIn,
        summary: 'Book a viewing or sea trial slot; confirmed by e-mail with an .ics invitation',
        description:
          '409 SLOT_TAKEN (details: the next free times) when someone booked that time first; 400 a time the marina does not offer; ' +
          '404 SEA_TRIALS_UNAVAILABLE; 429 too many bookings from this account in the last hour.',
        body: routes.book.body,
        response: {
          [routes.book.status]: routes.book.response,
          400: ErrorBody,
          401: ErrorBody,
          403: ErrorBody,
          404: ErrorBody,
          409: ErrorBody,
          429: ErrorBody,
        },
      },
    },
    async (request, reply) => {
      const user = request.user!;
      const kind = request.body.kind ?? 'viewing';
      const place = await placeFor(db, request.body.productId, kind);
      const slot = await slotOr400(db, place.location_id, request.body.startsAt, kind);
      if ((await countRecentBookings(db, user.email, user.id)) >= sales.enquiriesPerHour) {
        throw new ApiError(
          429,
          'RATE_LIMITED',
          'You have booked several times in the last hour. Please wait a little before booking again.',
        );
      }
      let booked;
      try {
        booked = await bookViewing(
          db,
          {
            locationId: place.location_id,
            slot,
            kind,
            productId: place.product_id,
            productName: place.product_name,
            userId: user.id,
            buyerName: user.displayName,
            email: user.email,
            clientAddress: request.ip,
            label: localLabel(slot.startsAt, place.time_zone),
          },
          (trx, viewing) => announceViewing(trx, viewing, { ...announce, to: user.email, buyerName: user.displayName, what: 'booked' }),
        );
      } catch (error) {
        if (isSlotTaken(error)) throw await slotTakenError(db, place.location_id, kind);
        throw error;
      }
      return reply.code(201).send(await toViewing(db, booked));
    },
  );

  fastify.get(
    '/',
    {
      preHandler: fastify.requireUser,
      schema: {
        ...signedIn,
        summary: "The caller's viewings, latest first",
        response: { [routes.list.status]: routes.list.response, 401: ErrorBody },
      },
    },
    async (request) => {
      await claimGuestViewings(db, request.user!);
      const rows = await listViewingsOfUser(db, request.user!.id);
      return { data: await Promise.all(rows.map((row) => toViewing(db, row))) };
    },
  );

  const ownOr404 = async (userId: string, id: string) => {
    const row = isUuid(id) ? await findViewingOfUser(db, userId, id) : undefined;
    if (!row) throw notFound('Viewing not found');
    return row;
  };

  fastify.get(
    '/:id',
    {
      preHandler: fastify.requireUser,
      schema: {
        ...signedIn,
        summary: "One of the caller's viewings; anyone else's is 404",
        params: routes.get.params,
        response: { [routes.get.status]: routes.get.response, 401: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) => {
      await claimGuestViewings(db, request.user!);
      return toViewing(db, await ownOr404(request.user!.id, request.params.id));
    },
  );

  fastify.post(
    '/:id/reschedule',
    {
      preHandler: fastify.requireUser,
      config: PER_IP,
      schema: {
        ...signedIn,
        summary: 'Move the viewing to another free slot; a new .ics replaces the old one',
        description: '409 SLOT_TAKEN when that time was just booked; 409 VIEWING_CANCELLED when cancelled already.',
        params: routes.reschedule.params,
        body: routes.reschedule.body,
        response: {
          [routes.reschedule.status]: routes.reschedule.response,
          400: ErrorBody,
          401: ErrorBody,
          403: ErrorBody,
          404: ErrorBody,
          409: ErrorBody,
          429: ErrorBody,
        },
      },
    },
    async (request) => {
      const user = request.user!;
      const current = await ownOr404(user.id, request.params.id);
      if (current.status !== 'booked') throw new ApiError(409, 'VIEWING_CANCELLED', 'This viewing was cancelled; please book a new one.');
      const slot = await slotOr400(db, current.location_id, request.body.startsAt, current.kind);
      const { time_zone } = await db
        .selectFrom('viewing_locations')
        .select('time_zone')
        .where('id', '=', current.location_id)
        .executeTakeFirstOrThrow();
      let moved;
      try {
        moved = await rescheduleViewing(
          db,
          { id: current.id, userId: user.id, locationId: current.location_id, slot, label: localLabel(slot.startsAt, time_zone) },
          (trx, viewing) => announceViewing(trx, viewing, { ...announce, to: user.email, buyerName: user.displayName, what: 'moved' }),
        );
      } catch (error) {
        if (isSlotTaken(error)) throw await slotTakenError(db, current.location_id, current.kind, current.id);
        throw error;
      }
      if (!moved) throw new ApiError(409, 'VIEWING_CANCELLED', 'This viewing was cancelled; please book a new one.');
      return toViewing(db, moved);
    },
  );

  fastify.post(
    '/:id/cancel',
    {
      preHandler: fastify.requireUser,
      config: PER_IP,
      schema: {
        ...signedIn,
        summary: 'Cancel the viewing; the slot is free again at once. A repeat answers the cancelled viewing.',
        params: routes.cancel.params,
        response: { [routes.cancel.status]: routes.cancel.response, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 429: ErrorBody },
      },
    },
    async (request) => {
      const user = request.user!;
      const current = await ownOr404(user.id, request.params.id);
      const cancelled = await cancelViewing(db, { id: current.id, userId: user.id }, async (trx, viewing) => {
        const facts = await viewingFacts(trx, viewing);
        await queueMail(
          trx,
          viewingCancelledMail({ to: user.email, buyerName: user.displayName, facts, manageLink: manageLink(viewing.id) }),
        );
        await queueMail(
          trx,
          viewingForShopMail({ to: sales.inbox, buyerName: user.displayName, facts, what: 'cancelled', link: leadLink(viewing.lead_id) }),
        );
      });
      return toViewing(db, cancelled ?? (await ownOr404(user.id, current.id)));
    },
  );
};

export default viewings;
