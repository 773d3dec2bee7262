import { Type, type Static } from '@sinclair/typebox';
import { DISPLAY_NAME_MAX_LENGTH, EMAIL_MAX_LENGTH, PASSWORD_FIELD_MAX_LENGTH, TOKEN_MAX_LENGTH } from '../constants.js';

// Accounts and sessions: /api/auth/…

/** Who is signed in, as every front end sees it. */
export const SessionUserSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    displayName: Type.String(),
    email: Type.String(),
    userRoles: Type.Array(Type.String()),
    /** false until the sign-up e-mail's link (or a reset, or the provider) proved the address */
    emailVerified: Type.Boolean(),
    /** false when the account signs in only through the provider (no password to change yet) */
    hasPassword: Type.Boolean(),
  },
  { title: 'SessionUser' },
);
export type SessionUser = Static<typeof SessionUserSchema>;

/** The answer of sign-in, registration and a password change. */
export const UserBodySchema = Type.Object({ user: SessionUserSchema });
export type UserBody = Static<typeof UserBodySchema>;

/** GET /api/auth/session: `user` is null for a visitor. */
export const SessionBodySchema = Type.Object({ user: Type.Union([SessionUserSchema, Type.Null()]) });
export type SessionBody = Static<typeof SessionBodySchema>;

// Lengths are generous caps against oversized bodies; the real rules give messages a form can list.
const Email = Type.String({ maxLength: EMAIL_MAX_LENGTH });
const Password = Type.String({ maxLength: PASSWORD_FIELD_MAX_LENGTH });
const Token = Type.String({ minLength: 1, maxLength: TOKEN_MAX_LENGTH });

export const RegisterBodySchema = Type.Object({
  displayName: Type.String({ maxLength: DISPLAY_NAME_MAX_LENGTH }),
  email: Email,
  password: Password,
  confirmPassword: Password,
});
export type RegisterBody = Static<typeof RegisterBodySchema>;

export const LoginBodySchema = Type.Object({ email: Email, password: Password });
export type LoginBody = Static<typeof LoginBodySchema>;

export const PasswordResetBodySchema = Type.Object({ email: Email });
export type PasswordResetBody = Static<typeof PasswordResetBodySchema>;

export const PasswordResetConfirmBodySchema = Type.Object({
  token: Token,
  password: Password,
  confirmPassword: Password,
});
export type PasswordResetConfirmBody = Static<typeof PasswordResetConfirmBodySchema>;

/**
 * The link's token; `password` and `confirmPassword` when the link is opened outside a session of
 * the account (the API answers 409 PASSWORD_REQUIRED without them): the address is confirmed together with a
 * new password, since whoever signed up with it may not own the mailbox.
 */
export const VerifyEmailBodySchema = Type.Object({
  token: Token,
  password: Type.Optional(Password),
  confirmPassword: Type.Optional(Password),
});
export type VerifyEmailBody = Static<typeof VerifyEmailBodySchema>;

export const ChangePasswordBodySchema = Type.Object({
  currentPassword: Password,
  password: Password,
  confirmPassword: Password,
});
export type ChangePasswordBody = Static<typeof ChangePasswordBodySchema>;

/** A sentence for the page to show (a reset requested, a verification e-mail sent again). */
export const MessageBodySchema = Type.Object({ message: Type.String() });
export type MessageBody = Static<typeof MessageBodySchema>;

/** The social sign-in popup's pages (/api/auth/oidc/…): HTML, not JSON. */
export const OidcPopupPageSchema = Type.String({ description: 'HTML for the sign-in popup' });
/** The provider's redirect back carries whatever query it chooses. */
export const OidcCallbackQuerySchema = Type.Object({}, { additionalProperties: Type.String() });
