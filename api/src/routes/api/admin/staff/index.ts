import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorBodySchema as ErrorBody, isUuid, ROUTES, STAFF_INVITATION_TTL_HOURS, type StaffRole } from '@boatshop/contract';
import type { FastifyRequest } from 'fastify';
import { recordAudit } from '../../../../features/audit/audit-log.js';
import { looksLikeEmail } from '../../../../features/auth/session-user.js';
import { assertSteppedUp } from '../../../../features/staff/step-up.js';
import { enqueueMail, invitationLink, staffInvitationMail } from '../../../../features/staff/staff-mails.js';
import {
  createInvitation,
  listOpenInvitations,
  listStaff,
  revokeInvitation,
  setStaffRole,
} from '../../../../features/staff/staff.repository.js';
import { badRequest, notFound } from '../../../../lib/errors.js';

const routes = ROUTES.admin.staff;
const denied = { 401: ErrorBody, 403: ErrorBody };

/** Owners manage the staff: invitations by e-mail, role changes, removals (staff.manage). */
const adminStaff: FastifyPluginAsyncTypebox = async (fastify) => {
  function checkedId(id: string, what: string): string {
    if (!isUuid(id)) throw notFound(what);
    return id.toLowerCase();
  }

  /** A role change or removal: step-up first, then the change and its audit row (before/after) in one transaction. */
  async function changeRole(request: FastifyRequest, rawId: string, role: StaffRole | null, status: number) {
    const id = checkedId(rawId, 'No such person');
    await assertSteppedUp(fastify.db, request);
    return fastify.db.transaction().execute(async (trx) => {
      const change = await setStaffRole(trx, id, role);
      await recordAudit(trx, {
        request,
        action: role ? 'staff.role_changed' : 'staff.removed',
        target: { type: 'user', id },
        status,
        ...change,
      });
      return change;
    });
  }

  fastify.get(
    '/',
    {
      config: { permission: 'staff.manage' },
      schema: {
        summary: 'Everyone with a staff role, and the invitations still open',
        tags: ['admin'],
        security: [{ session: [] }],
        response: { [routes.list.status]: routes.list.response, ...denied },
      },
    },
    async () => ({ staff: await listStaff(fastify.db), invitations: await listOpenInvitations(fastify.db) }),
  );

  fastify.post(
    '/invitations',
    {
      config: { permission: 'staff.manage' },
      schema: {
        summary: 'Invite someone by e-mail to a role; the e-mail goes through the outbox',
        description:
          'Accepting needs a session whose verified e-mail is the invited one. A newer invitation to the same address replaces the older.',
        tags: ['admin'],
        security: [{ session: [] }],
        body: routes.invite.body,
        response: { [routes.invite.status]: routes.invite.response, 400: ErrorBody, ...denied },
      },
    },
    async (request, reply) => {
      await assertSteppedUp(fastify.db, request);
      const email = request.body.email.trim();
      if (!looksLikeEmail(email)) throw badRequest('Enter a valid e-mail address');
      const invitation = await fastify.db.transaction().execute(async (trx) => {
        const created = await createInvitation(trx, { email, role: request.body.role, invitedBy: request.user!.id });
        const mail = staffInvitationMail({
          to: email,
          role: request.body.role,
          inviter: request.user!.displayName,
          link: invitationLink(fastify.config.publicUrl, created.token),
          ttlHours: STAFF_INVITATION_TTL_HOURS,
        });
        await enqueueMail(trx, `staff-invitation:${created.invitation.id}`, mail);
        return created.invitation;
      });
      return reply.code(201).send(invitation);
    },
  );

  fastify.delete(
    '/invitations/:id',
    {
      config: { permission: 'staff.manage' },
      schema: {
        summary: 'Withdraw an open invitation: its link stops working',
        tags: ['admin'],
        security: [{ session: [] }],
        params: routes.revokeInvitation.params,
        response: { [routes.revokeInvitation.status]: routes.revokeInvitation.response, 400: ErrorBody, ...denied, 404: ErrorBody },
      },
    },
    async (request, reply) => {
      const revoked = await revokeInvitation(fastify.db, checkedId(request.params.id, 'Invitation not found'));
      if (!revoked) throw notFound('Invitation not found');
      return reply.code(204).send(null);
    },
  );

  fastify.put(
    '/:id/role',
    {
      config: { permission: 'staff.manage' },
      schema: {
        summary: "Change a person's staff role (409 LAST_OWNER when it would leave the shop without an owner)",
        tags: ['admin'],
        security: [{ session: [] }],
        params: routes.setRole.params,
        body: routes.setRole.body,
        response: { [routes.setRole.status]: routes.setRole.response, 400: ErrorBody, ...denied, 404: ErrorBody, 409: ErrorBody },
      },
    },
    async (request) => (await changeRole(request, request.params.id, request.body.role, 200)).after!,
  );

  fastify.delete(
    '/:id',
    {
      config: { permission: 'staff.manage' },
      schema: {
        summary: 'Take the staff role away (the account stays a shopper); never the last owner (409 LAST_OWNER)',
        tags: ['admin'],
        security: [{ session: [] }],
        params: routes.remove.params,
        response: { [routes.remove.status]: routes.remove.response, 400: ErrorBody, ...denied, 404: ErrorBody, 409: ErrorBody },
      },
    },
    async (request, reply) => {
      await changeRole(request, request.params.id, null, 204);
      return reply.code(204).send(null);
    },
  );
};

export default adminStaff;
