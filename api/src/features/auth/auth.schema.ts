import { Type, type Static } from '@sinclair/typebox';
import type { AuthUser } from '../users/users.repository.js';

/** Who is signed in, as every front end sees it (packages/state/src/contract.ts `SessionUser`). */
export const SessionUser = Type.Object(
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
export type SessionUser = Static<typeof SessionUser>;

export const UserBody = Type.Object({ user: SessionUser });
export const SessionBody = Type.Object({ user: Type.Union([SessionUser, Type.Null()]) });

// Lengths are generous caps against oversized bodies; the real rules give messages a form can list.
const Email = Type.String({ maxLength: 254 });
const Password = Type.String({ maxLength: 1024 });

export const RegisterBody = Type.Object({
  displayName: Type.String({ maxLength: 200 }),
  email: Email,
  password: Password,
  confirmPassword: Password,
});

export const LoginBody = Type.Object({ email: Email, password: Password });

export const PasswordResetBody = Type.Object({ email: Email });
export const PasswordResetAccepted = Type.Object({ message: Type.String() });

export const PasswordResetConfirmBody = Type.Object({
  token: Type.String({ minLength: 1, maxLength: 200 }),
  password: Password,
  confirmPassword: Password,
});

export const VerifyEmailBody = Type.Object({ token: Type.String({ minLength: 1, maxLength: 200 }) });
export const MessageBody = Type.Object({ message: Type.String() });

export const ChangePasswordBody = Type.Object({
  currentPassword: Password,
  password: Password,
  confirmPassword: Password,
});

export function toSessionUser(user: AuthUser): SessionUser {
  return {
    id: user.id,
    displayName: user.displayName,
    email: user.email,
    userRoles: user.roles,
    emailVerified: user.emailVerified,
    hasPassword: user.hasPassword,
  };
}

/** Deliberately loose: a typo check for forms, not RFC 5322. The e-mail that arrives is the real proof. */
export function looksLikeEmail(value: string): boolean {
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value.trim());
}
