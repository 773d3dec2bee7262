import { ErrorBodySchema as ErrorBody, ROUTES } from '@boatshop/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { randomBytes } from 'node:crypto';
import { hashEmailToken } from '../../../../features/auth/email-tokens.js';
import { looksLikeEmail } from '../../../../features/auth/session-user.js';
import { perIpRateLimit } from '../../../../features/auth/throttle.js';
import { queueMail } from '../../../../features/leads/lead-mails.js';
import {
  confirmGuestViewing,
  countRecentBookings,
  findByToken,
  GUEST_HOLD_MS,
  holdGuestViewing,
} from '../../../../features/viewings/guest-viewings.js';
import { localLabel } from '../../../../features/viewings/slots.js';
import { announceViewing, placeFor, slotOr400, slotTakenError, viewingFacts } from '../../../../features/viewings/viewing-announce.js';
import { confirmViewingMail } from '../../../../features/viewings/viewing-mails.js';
import { isSlotTaken, toViewing } from '../../../../features/viewings/viewings.repository.js';
import { ApiError, badRequest } from '../../../../lib/errors.js';

const routes = ROUTES.viewings;

/**
 * A guest's viewing or sea trial (/api/viewings/guest): booked with a name and an e-mail address,
 * its time held for a while, and reaching the shop only once the e-mailed link is opened (as a
 * guest's question does). The same spam rules as questions: a limit per address and per client,
 * a honeypot, size limits.
 */
const guestViewings: FastifyPluginAsyncTypebox = async (fastify) => {
  const { db } = fastify;
  const { publicUrl, sales } = fastify.config;
  const PER_IP = perIpRateLimit(sales.perIpPerMinute);
  const tags = ['viewings'];

  fastify.post(
    '/',
    {
      config: PER_IP,
      schema: {
        tags,
        summary: "A guest's booking: the time is held and a confirmation link is e-mailed; the shop hears of it once the link is opened",
        description:
          '400 without a name or a valid e-mail, or a time the marina does not offer; 404 VIEWINGS_UNAVAILABLE / SEA_TRIALS_UNAVAILABLE; ' +
          '409 SLOT_TAKEN (details: the next free times); 429 too many bookings from this address.',
        body: routes.bookAsGuest.body,
        response: {
          [routes.bookAsGuest.status]: routes.bookAsGuest.response,
          400: ErrorBody,
          403: ErrorBody,
          404: ErrorBody,
          409: ErrorBody,
          429: ErrorBody,
        },
      },
    },
    async (request, reply) => {
      const kind = request.body.kind ?? 'viewing';
      const heldUntil = new Date(Date.now() + GUEST_HOLD_MS).toISOString();
      // The honeypot: people never see the field, a bot fills it. Answered like a success, nothing kept.
      if (request.body.website) return reply.code(202).send({ outcome: 'confirm-by-email', heldUntil });
      const name = request.body.name.trim();
      const email = request.body.email.trim().toLowerCase();
      const problems: string[] = [];
      if (!name) problems.push('Please give your name.');
      if (!looksLikeEmail(email)) problems.push('Please give a valid e-mail address.');
      if (problems.length > 0) throw badRequest(problems.join(' '), problems);

      const place = await placeFor(db, request.body.productId, kind);
      const slot = await slotOr400(db, place.location_id, request.body.startsAt, kind);
      if ((await countRecentBookings(db, email, null)) >= sales.enquiriesPerHour) {
        throw new ApiError(
          429,
          'RATE_LIMITED',
          'Several bookings were made with this e-mail address in the last hour. Please wait a little.',
        );
      }
      const token = randomBytes(32).toString('base64url');
      try {
        const held = await holdGuestViewing(
          db,
          {
            locationId: place.location_id,
            slot,
            kind,
            productId: place.product_id,
            productName: place.product_name,
            name,
            email,
            tokenHash: hashEmailToken(token),
          },
          async (trx, viewing) => {
            const link = `${publicUrl}/confirm-viewing?token=${encodeURIComponent(token)}`;
            const facts = await viewingFacts(trx, viewing);
            await queueMail(trx, confirmViewingMail({ to: email, name, facts, link, heldMinutes: GUEST_HOLD_MS / 60_000 }));
          },
        );
        return reply.code(202).send({ outcome: 'confirm-by-email', heldUntil: held.hold_until!.toISOString() });
      } catch (error) {
        if (isSlotTaken(error)) throw await slotTakenError(db, place.location_id, kind);
        throw error;
      }
    },
  );

  fastify.post(
    '/confirm',
    {
      config: PER_IP,
      schema: {
        tags,
        summary: "Confirm a guest's booking with the e-mailed link's token: booked, and the shop hears of it",
        description:
          'The link works once: 404 LINK_INVALID for an unknown, used or expired token (or a time already past). ' +
          '409 SLOT_TAKEN (details: the next free times) when the hold ran out and someone took the time meanwhile.',
        body: routes.confirm.body,
        response: {
          [routes.confirm.status]: routes.confirm.response,
          400: ErrorBody,
          403: ErrorBody,
          404: ErrorBody,
          409: ErrorBody,
          429: ErrorBody,
        },
      },
    },
    async (request) => {
      const invalid = () => new ApiError(404, 'LINK_INVALID', 'This confirmation link is unknown, used already or expired.');
      const tokenHash = hashEmailToken(request.body.token);
      const pending = await findByToken(db, tokenHash);
      if (!pending) throw invalid();
      const { time_zone } = await db
        .selectFrom('viewing_locations')
        .select('time_zone')
        .where('id', '=', pending.location_id)
        .executeTakeFirstOrThrow();
      let booked;
      try {
        booked = await confirmGuestViewing(
          db,
          { tokenHash, locationId: pending.location_id, label: localLabel(pending.starts_at, time_zone), clientAddress: request.ip },
          (trx, viewing) =>
            announceViewing(trx, viewing, {
              publicUrl,
              inbox: sales.inbox,
              to: viewing.guest_email ?? '',
              buyerName: viewing.guest_name ?? '',
              what: 'booked',
              guest: true,
            }),
        );
      } catch (error) {
        if (isSlotTaken(error)) throw await slotTakenError(db, pending.location_id, pending.kind);
        throw error;
      }
      if (!booked) throw invalid();
      return toViewing(db, booked);
    },
  );
};

export default guestViewings;
