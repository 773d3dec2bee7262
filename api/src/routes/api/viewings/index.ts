import { ErrorBodySchema as ErrorBody, isUuid, ROUTES } from '@boatshop/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Selectable, Transaction } from 'kysely';
import type { Database } from '../../../db/database.js';
import { perIpRateLimit } from '../../../features/auth/throttle.js';
import { queueMail } from '../../../features/leads/lead-mails.js';
import { localLabel, type Slot } from '../../../features/viewings/slots.js';
import {
  viewingBookedMail,
  viewingCancelledMail,
  viewingForShopMail,
  type ViewingMailFacts,
} from '../../../features/viewings/viewing-mails.js';
import type { ViewingsTable } from '../../../features/viewings/viewings.table.js';
import {
  bookViewing,
  cancelViewing,
  changesOf,
  findViewingOfUser,
  freeSlotsOf,
  isSlotTaken,
  listViewingsOfUser,
  offeredSlotAt,
  placeOfProduct,
  rescheduleViewing,
  toViewing,
} from '../../../features/viewings/viewings.repository.js';
import { ApiError, badRequest, notFound } from '../../../lib/errors.js';

const routes = ROUTES.viewings;

/**
 * Viewings of a boat at its marina (/api/viewings): the free slots on the marina's clock (anyone),
 * booking, rescheduling and cancelling (signed in, one's own viewings only: anyone else's is 404).
 * Two shoppers taking the same time: the database's exclusion constraint lets one through; the
 * other gets 409 SLOT_TAKEN with the next free times.
 */
const viewings: FastifyPluginAsyncTypebox = async (fastify) => {
  const { db } = fastify;
  const { publicUrl, sales } = fastify.config;
  const PER_IP = perIpRateLimit(sales.perIpPerMinute);
  const tags = ['viewings'];
  const signedIn = { tags, security: [{ session: [] }] };

  const slotTaken = async (locationId: string, exceptId?: string) => {
    const { location, slots } = await freeSlotsOf(db, locationId, new Date(), exceptId);
    const next = slots.slice(0, 3).map((slot) => localLabel(slot.startsAt, location.time_zone));
    return new ApiError(
      409,
      'SLOT_TAKEN',
      next.length > 0
        ? `Someone has just booked this time. The next free times are ${next.join(', ')}.`
        : 'Someone has just booked this time, and no other time is free in the coming weeks.',
      { details: next },
    );
  };

  async function factsOf(trx: Transaction<Database>, viewing: Selectable<ViewingsTable>): Promise<ViewingMailFacts> {
    const location = await trx.selectFrom('viewing_locations').selectAll().where('id', '=', viewing.location_id).executeTakeFirstOrThrow();
    return {
      id: viewing.id,
      productName: viewing.product_name,
      marina: location.marina,
      address: location.address,
      startsAt: viewing.starts_at,
      endsAt: viewing.ends_at,
      label: localLabel(viewing.starts_at, location.time_zone),
      timeZone: location.time_zone,
      sequence: await changesOf(trx, viewing),
    };
  }

  const manageLink = (id: string) => `${publicUrl}/viewings/${id}`;
  const leadLink = (id: string | null) => (id ? `${publicUrl}/admin/leads/${id}` : `${publicUrl}/admin/leads`);

  /** The booking or move, told to the buyer (with the .ics) and to the shop's inbox, in its transaction. */
  async function announceViewing(
    trx: Transaction<Database>,
    viewing: Selectable<ViewingsTable>,
    user: { email: string; displayName: string },
    what: 'booked' | 'moved',
  ): Promise<void> {
    const facts = await factsOf(trx, viewing);
    await queueMail(
      trx,
      viewingBookedMail({
        to: user.email,
        buyerName: user.displayName,
        facts,
        manageLink: manageLink(viewing.id),
        rescheduled: what === 'moved',
      }),
    );
    await queueMail(
      trx,
      viewingForShopMail({ to: sales.inbox, buyerName: user.displayName, facts, what, link: leadLink(viewing.lead_id) }),
    );
  }

  /** The slot a request names: one the marina's calendar offers, else 400. */
  async function slotOr400(locationId: string, startsAt: string): Promise<Slot> {
    const slot = await offeredSlotAt(db, locationId, new Date(startsAt));
    if (!slot) throw badRequest('This is not a viewing time the marina offers.', ['This is not a viewing time the marina offers.']);
    return slot;
  }

  fastify.get(
    '/slots',
    {
      schema: {
        tags,
        summary: "The boat's marina and its free viewing slots for the coming weeks, on the marina's clock",
        description: '404 VIEWINGS_UNAVAILABLE when the boat lies where the shop has no viewing calendar.',
        querystring: routes.slots.query,
        response: { [routes.slots.status]: routes.slots.response, 400: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) => {
      const { productId } = request.query;
      const place = isUuid(productId) ? await placeOfProduct(db, productId) : undefined;
      if (!place) throw new ApiError(404, 'VIEWINGS_UNAVAILABLE', 'Viewings of this boat are arranged by the shop: please ask a question.');
      const { location, slots } = await freeSlotsOf(db, place.location_id);
      return {
        place: { marina: location.marina, address: location.address, timeZone: location.time_zone },
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
        summary: 'Book a viewing slot; confirmed by e-mail with an .ics invitation',
        description:
          '409 SLOT_TAKEN (details: the next free times) when someone booked that time first; 400 a time the marina does not offer.',
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
      const place = isUuid(request.body.productId) ? await placeOfProduct(db, request.body.productId) : undefined;
      if (!place) throw new ApiError(404, 'VIEWINGS_UNAVAILABLE', 'Viewings of this boat are arranged by the shop: please ask a question.');
      const slot = await slotOr400(place.location_id, request.body.startsAt);
      let booked;
      try {
        booked = await bookViewing(
          db,
          {
            locationId: place.location_id,
            slot,
            productId: place.product_id,
            productName: place.product_name,
            userId: user.id,
            buyerName: user.displayName,
            email: user.email,
            clientAddress: request.ip,
            label: localLabel(slot.startsAt, place.time_zone),
          },
          (trx, viewing) => announceViewing(trx, viewing, user, 'booked'),
        );
      } catch (error) {
        if (isSlotTaken(error)) throw await slotTaken(place.location_id);
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
    async (request) => toViewing(db, await ownOr404(request.user!.id, request.params.id)),
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
      const slot = await slotOr400(current.location_id, request.body.startsAt);
      const { time_zone } = await db
        .selectFrom('viewing_locations')
        .select('time_zone')
        .where('id', '=', current.location_id)
        .executeTakeFirstOrThrow();
      let moved;
      try {
        moved = await rescheduleViewing(
          db,
          { id: current.id, userId: user.id, slot, label: localLabel(slot.startsAt, time_zone) },
          (trx, viewing) => announceViewing(trx, viewing, user, 'moved'),
        );
      } catch (error) {
        if (isSlotTaken(error)) throw await slotTaken(current.location_id, current.id);
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
        const facts = await factsOf(trx, viewing);
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
