import { Type, type Static } from '@sinclair/typebox';
import { EMAIL_MAX_LENGTH, PASSWORD_FIELD_MAX_LENGTH, STAFF_ROLES, TOKEN_MAX_LENGTH } from '../constants.js';
import { DateTime, Nullable } from './common.js';

// Staff and their roles: /api/admin/staff/… (owners), /api/staff/invitations/accept (the invited person).

export const StaffRoleSchema = Type.Union(STAFF_ROLES.map((role) => Type.Literal(role)));

export const StaffMemberSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    email: Type.String(),
    displayName: Type.String(),
    role: StaffRoleSchema,
  },
  { title: 'StaffMember' },
);
export type StaffMember = Static<typeof StaffMemberSchema>;

export const StaffInvitationSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    email: Type.String(),
    role: StaffRoleSchema,
    createdAt: DateTime(),
    expiresAt: DateTime(),
    invitedBy: Nullable(Type.String({ description: 'the inviting owner’s name' })),
  },
  { title: 'StaffInvitation' },
);
export type StaffInvitation = Static<typeof StaffInvitationSchema>;

/** GET /api/admin/staff: everyone with a staff role, and the invitations still open. */
export const StaffListSchema = Type.Object({ staff: Type.Array(StaffMemberSchema), invitations: Type.Array(StaffInvitationSchema) });
export type StaffList = Static<typeof StaffListSchema>;

export const InviteStaffBodySchema = Type.Object({ email: Type.String({ maxLength: EMAIL_MAX_LENGTH }), role: StaffRoleSchema });
export type InviteStaffBody = Static<typeof InviteStaffBodySchema>;

export const StaffRoleBodySchema = Type.Object({ role: StaffRoleSchema });
export type StaffRoleBody = Static<typeof StaffRoleBodySchema>;

export const AcceptInvitationBodySchema = Type.Object({ token: Type.String({ minLength: 1, maxLength: TOKEN_MAX_LENGTH }) });
export type AcceptInvitationBody = Static<typeof AcceptInvitationBodySchema>;

/** Step-up: the password typed again before a sensitive action (large refunds, role changes, exports). */
export const StepUpBodySchema = Type.Object({ password: Type.String({ maxLength: PASSWORD_FIELD_MAX_LENGTH }) });
export type StepUpBody = Static<typeof StepUpBodySchema>;

/** Until when sensitive actions go through without asking again; null: they will ask. */
export const StepUpStatusSchema = Type.Object({ freshUntil: Nullable(DateTime()) });
export type StepUpStatus = Static<typeof StepUpStatusSchema>;
