import { ErrorBodySchema as ErrorBody, isUuid, ROUTES, type ViewingLocationInput } from '@boatshop/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { isDayHours, isTimeZone } from '../../../../features/viewings/slots.js';
import type { DayHours } from '../../../../features/viewings/viewings.table.js';
import {
  findLocation,
  insertLocation,
  listLocations,
  removeException,
  setException,
  updateLocation,
} from '../../../../features/viewings/viewing-locations.repository.js';
import { badRequest, conflict, notFound } from '../../../../lib/errors.js';

const routes = ROUTES.admin.viewingLocations;

/** A location's settings as the calendar can use them, else 400 naming each problem. */
function checked(input: ViewingLocationInput): ViewingLocationInput {
  const problems: string[] = [];
  if (!input.marina.trim()) problems.push('Please name the marina.');
  if (!input.address.trim()) problems.push("Please give the marina's address.");
  if (!isTimeZone(input.timeZone)) problems.push('The time zone is not a known IANA zone (e.g. Europe/Paris).');
  for (const [day, hours] of Object.entries(input.weeklyHours)) {
    if (hours && !isDayHours(hours)) problems.push(`The hours of weekday ${day} overlap or end before they start.`);
  }
  if (problems.length > 0) throw badRequest(problems.join(' '), problems);
  return { ...input, marina: input.marina.trim(), address: input.address.trim() };
}

const isUniqueViolation = (error: unknown) => (error as { code?: string } | null)?.code === '23505';

/**
 * The marinas' viewing calendars: weekly hours, exceptions and holidays, slot length, buffer,
 * time zone and address. A boat is viewed at the location whose marina is its
 * products.location_marina. Reading needs leads.read, changes leads.write (the audit hook records them).
 */
const viewingLocations: FastifyPluginAsyncTypebox = async (fastify) => {
  const { db } = fastify;
  const schema = { tags: ['admin', 'viewings'], security: [{ session: [] }] };
  const denied = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };

  const locationOr404 = async (id: string) => {
    const location = isUuid(id) ? await findLocation(db, id.toLowerCase()) : undefined;
    if (!location) throw notFound('Location not found');
    return location;
  };
  const marinaTaken = () => conflict('MARINA_EXISTS', 'A calendar for this marina exists already.');

  fastify.get(
    '/',
    {
      config: { permission: 'leads.read' },
      schema: {
        ...schema,
        summary: "Every marina's viewing calendar",
        response: { [routes.list.status]: routes.list.response, ...denied },
      },
    },
    async () => ({ data: await listLocations(db) }),
  );

  fastify.post(
    '/',
    {
      config: { permission: 'leads.write' },
      schema: {
        ...schema,
        summary: "A marina's viewing calendar",
        body: routes.create.body,
        response: { [routes.create.status]: routes.create.response, ...denied, 409: ErrorBody },
      },
    },
    async (request, reply) => {
      try {
        const id = await insertLocation(db, checked(request.body));
        return reply.code(201).send(await locationOr404(id));
      } catch (error) {
        if (isUniqueViolation(error)) throw marinaTaken();
        throw error;
      }
    },
  );

  fastify.put(
    '/:id',
    {
      config: { permission: 'leads.write' },
      schema: {
        ...schema,
        summary: "Change a marina's calendar; booked viewings stay as they are",
        params: routes.update.params,
        body: routes.update.body,
        response: { [routes.update.status]: routes.update.response, ...denied, 409: ErrorBody },
      },
    },
    async (request) => {
      const { id } = await locationOr404(request.params.id);
      try {
        await updateLocation(db, id, checked(request.body));
      } catch (error) {
        if (isUniqueViolation(error)) throw marinaTaken();
        throw error;
      }
      return locationOr404(id);
    },
  );

  fastify.put(
    '/:id/exceptions/:day',
    {
      config: { permission: 'leads.write' },
      schema: {
        ...schema,
        summary: 'One day with its own hours, or closed (hours null): a holiday',
        params: routes.setException.params,
        body: routes.setException.body,
        response: { [routes.setException.status]: routes.setException.response, ...denied },
      },
    },
    async (request) => {
      const { id } = await locationOr404(request.params.id);
      const { day } = request.params;
      if (Number.isNaN(new Date(`${day}T00:00:00Z`).getTime()) || new Date(`${day}T00:00:00Z`).toISOString().slice(0, 10) !== day) {
        throw badRequest('The day is not a real day.', ['The day is not a real day.']);
      }
      const hours = request.body.hours as DayHours | null;
      if (hours !== null && !isDayHours(hours))
        throw badRequest('The hours overlap or end before they start.', ['The hours overlap or end before they start.']);
      await setException(db, id, day, hours, request.body.note?.trim() ?? '');
      return locationOr404(id);
    },
  );

  fastify.delete(
    '/:id/exceptions/:day',
    {
      config: { permission: 'leads.write' },
      schema: {
        ...schema,
        summary: 'The day follows the weekly hours again',
        params: routes.removeException.params,
        response: { [routes.removeException.status]: routes.removeException.response, ...denied },
      },
    },
    async (request) => {
      const { id } = await locationOr404(request.params.id);
      await removeException(db, id, request.params.day);
      return locationOr404(id);
    },
  );
};

export default viewingLocations;
