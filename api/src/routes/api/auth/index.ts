import { ErrorBodySchema as ErrorBody, ROUTES } from '@boatshop/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyBaseLogger } from 'fastify';
import {
  ALREADY_VERIFIED,
  EMAIL_INVALID,
  EMAIL_TAKEN,
  NAME_MISSING,
  PASSWORDS_DIFFER,
  RESET_ACCEPTED,
  RESET_LINK_INVALID,
  VERIFICATION_LINK_INVALID,
  VERIFICATION_PASSWORD_REQUIRED,
  VERIFICATION_SENT,
  WRONG_CREDENTIALS,
  WRONG_CURRENT_PASSWORD,
} from '../../../features/auth/auth-messages.js';
import { passwordMatches } from '../../../features/auth/credentials.js';
import { looksLikeEmail, toSessionUser } from '../../../features/auth/session-user.js';
import {
  createVerificationToken,
  markEmailVerified,
  verificationLink,
  confirmEmailAddress,
  verificationMail,
} from '../../../features/auth/email-verification.js';
import {
  consumeResetToken,
  createResetToken,
  findResetTokenUser,
  passwordResetMail,
  resetLink,
  spendOutstandingResetTokens,
} from '../../../features/auth/password-reset.js';
import { clearAttempts, countAttempt, perIpRateLimit } from '../../../features/auth/throttle.js';
import { createMailer } from '../../../features/mail/mailer.js';
import {
  replaceAllSessions,
  revokeUserSessions,
  setSessionCookie,
  signIn,
  signOut,
  signOutEverywhere,
} from '../../../features/sessions/sessions.js';
import { hashPassword } from '../../../features/users/password.js';
import { passwordPolicyProblems } from '../../../features/users/password-policy.js';
import {
  findUserByEmail,
  findUserById,
  insertUser,
  isUniqueViolation,
  rowToAuthUser,
  unlinkUnverifiedIdentities,
  updatePasswordHash,
} from '../../../features/users/users.repository.js';
import { ApiError, badRequest } from '../../../lib/errors.js';
import { issueCsrfCookie } from '../../../plugins/app/csrf.js';

const routes = ROUTES.auth;
const VERIFY_EMAIL_ERRORS = { 400: ErrorBody, 403: ErrorBody, 409: ErrorBody, 429: ErrorBody };

/** A form's problems as one 400: `details` lists each, for the page's error list. */
function formProblems(problems: string[]): ApiError {
  return badRequest(problems.length === 1 ? problems[0]! : 'Please correct the problems listed.', problems);
}

const auth: FastifyPluginAsyncTypebox = async (fastify) => {
  const { db } = fastify;
  const perIp = perIpRateLimit(fastify.config.authRateLimitPerMinute);

  const mailer = createMailer(fastify.config.mail);
  // E-mails go out after the answer: a reset's answer then takes as long whether or not the
  // account exists, and a slow mail server never holds up a sign-up. Closing the app waits for
  // those still on their way.
  const mailsInFlight = new Set<Promise<void>>();
  function inBackground(log: FastifyBaseLogger, what: string, task: () => Promise<void>) {
    const running: Promise<void> = task()
      .catch((err: unknown) => log.error({ err }, `${what} e-mail could not be sent`))
      .finally(() => mailsInFlight.delete(running));
    mailsInFlight.add(running);
  }
  fastify.addHook('onClose', async () => {
    await Promise.allSettled([...mailsInFlight]);
    mailer.close();
  });

  /** A fresh verification link to the account's address, sent after the answer. */
  function sendVerificationMail(log: FastifyBaseLogger, user: { id: string; email: string; display_name: string }) {
    inBackground(log, 'verification', async () => {
      const token = await createVerificationToken(db, user.id);
      await mailer.send(
        verificationMail({ to: user.email, displayName: user.display_name, link: verificationLink(fastify.config.publicUrl, token) }),
      );
      log.info({ userId: user.id }, 'verification e-mail sent');
    });
  }

  fastify.get(
    '/session',
    {
      schema: {
        summary: 'Who is signed in; also hands out the csrf cookie',
        tags: ['auth'],
        response: { [routes.session.status]: routes.session.response },
      },
    },
    async (request, reply) => {
      issueCsrfCookie(request, reply);
      // Per-user data: no shared cache may keep it.
      reply.header('cache-control', 'no-store');
      return { user: request.user ? toSessionUser(request.user) : null };
    },
  );

  fastify.post(
    '/register',
    {
      config: perIp,
      schema: {
        summary: 'Create an account with e-mail and password, and sign in',
        tags: ['auth'],
        body: routes.register.body,
        response: { [routes.register.status]: routes.register.response, 400: ErrorBody, 403: ErrorBody, 409: ErrorBody, 429: ErrorBody },
      },
    },
    async (request, reply) => {
      const displayName = request.body.displayName.trim();
      const email = request.body.email.trim();
      const { password, confirmPassword } = request.body;

      await countAttempt(db, 'register', { email, clientAddress: request.ip });

      const problems: string[] = [];
      if (!displayName) problems.push(NAME_MISSING);
      if (!looksLikeEmail(email)) problems.push(EMAIL_INVALID);
      if (password !== confirmPassword) problems.push(PASSWORDS_DIFFER);
      problems.push(...passwordPolicyProblems(password, email));
      if (problems.length > 0) throw formProblems(problems);

      const emailTaken = new ApiError(409, 'EMAIL_TAKEN', EMAIL_TAKEN, { details: [EMAIL_TAKEN] });
      // Hashed before the lookup, taken e-mail or not: the answer's speed must not tell a prober
      // which addresses have accounts. The message itself stays (the shop signs a new account in at
      // once, so a taken address cannot get a success-like answer); the per-IP limits bound probing.
      const passwordHash = await hashPassword(password);
      if (await findUserByEmail(db, email)) throw emailTaken;
      let user;
      try {
        user = await insertUser(db, { email, display_name: displayName, roles: ['user'], password_hash: passwordHash });
      } catch (err) {
        // Two sign-ups of one e-mail at once: the unique index decides, the loser hears why.
        if (isUniqueViolation(err)) throw emailTaken;
        throw err;
      }

      // Unverified accounts can shop; the link proves the address before any provider may link to it.
      sendVerificationMail(request.log, user);

      await signIn(request, reply, user.id);
      return reply.code(201).send({ user: toSessionUser(rowToAuthUser(user)) });
    },
  );

  fastify.post(
    '/login',
    {
      config: perIp,
      schema: {
        summary: 'Sign in with e-mail and password',
        tags: ['auth'],
        body: routes.login.body,
        response: { [routes.login.status]: routes.login.response, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 429: ErrorBody },
      },
    },
    async (request, reply) => {
      const { email, password } = request.body;
      // Counted before the password is checked, so parallel guesses cannot slip past the limit.
      await countAttempt(db, 'login', { email, clientAddress: request.ip });

      const user = await findUserByEmail(db, email);
      if (!(await passwordMatches(user, password)) || !user) {
        // One answer for an unknown e-mail and a wrong password alike.
        throw new ApiError(401, 'WRONG_CREDENTIALS', WRONG_CREDENTIALS, { details: [WRONG_CREDENTIALS] });
      }
      await clearAttempts(db, 'login', email, request.ip);

      await signIn(request, reply, user.id);
      return { user: toSessionUser(rowToAuthUser(user)) };
    },
  );

  fastify.post(
    '/logout',
    {
      preHandler: fastify.requireUser,
      schema: {
        summary: 'Sign out: the session is revoked on the server',
        tags: ['auth'],
        response: { [routes.logout.status]: routes.logout.response, 401: ErrorBody, 403: ErrorBody },
      },
    },
    async (request, reply) => {
      await signOut(request, reply);
      return reply.code(204).send(null);
    },
  );

  fastify.post(
    '/password-reset',
    {
      config: perIp,
      schema: {
        summary: 'E-mail a single-use link to choose a new password',
        description: 'Answers the same whether or not an account has this e-mail.',
        tags: ['auth'],
        body: routes.requestPasswordReset.body,
        response: {
          [routes.requestPasswordReset.status]: routes.requestPasswordReset.response,
          400: ErrorBody,
          403: ErrorBody,
          429: ErrorBody,
        },
      },
    },
    async (request, reply) => {
      const email = request.body.email.trim();
      if (!looksLikeEmail(email)) throw formProblems([EMAIL_INVALID]);
      await countAttempt(db, 'password-reset', { email, clientAddress: request.ip });

      inBackground(request.log, 'password reset', async () => {
        const user = await findUserByEmail(db, email);
        if (!user) return;
        const token = await createResetToken(db, user.id);
        await mailer.send(
          passwordResetMail({ to: user.email, displayName: user.display_name, link: resetLink(fastify.config.publicUrl, token) }),
        );
        request.log.info({ userId: user.id }, 'password reset e-mail sent');
      });
      return reply.code(202).send({ message: RESET_ACCEPTED });
    },
  );

  fastify.post(
    '/password-reset/confirm',
    {
      config: perIp,
      schema: {
        summary: 'Choose a new password with the link from the e-mail',
        description: "Signs the user out everywhere else. The link's token works once and for 1 hour.",
        tags: ['auth'],
        body: routes.confirmPasswordReset.body,
        response: {
          [routes.confirmPasswordReset.status]: routes.confirmPasswordReset.response,
          400: ErrorBody,
          403: ErrorBody,
          429: ErrorBody,
        },
      },
    },
    async (request, reply) => {
      const { token, password, confirmPassword } = request.body;
      const owner = await findResetTokenUser(db, token);
      if (!owner) throw formProblems([RESET_LINK_INVALID]);

      // Checked before the token is spent, so a refused password can be retried with the same link.
      const problems = [...(password !== confirmPassword ? [PASSWORDS_DIFFER] : []), ...passwordPolicyProblems(password, owner.email)];
      if (problems.length > 0) throw formProblems(problems);

      const passwordHash = await hashPassword(password);
      await db.transaction().execute(async (trx) => {
        if ((await consumeResetToken(trx, token)) !== owner.userId) throw formProblems([RESET_LINK_INVALID]);
        await updatePasswordHash(trx, owner.userId, passwordHash);
        await spendOutstandingResetTokens(trx, owner.userId);
        // Signed out everywhere except, when the owner is signed in right here, this browser.
        await revokeUserSessions(trx, owner.userId, { keep: request.user?.id === owner.userId ? request.sessionId : null });
        // The link proved the mailbox: the address is verified, and provider links that were made
        // while it was not may belong to someone else.
        await markEmailVerified(trx, owner.userId);
        await unlinkUnverifiedIdentities(trx, owner.userId);
      });
      // Whoever guessed at the old password is locked out by the new one; the owner may sign in at once.
      await clearAttempts(db, 'login', owner.email);
      return reply.code(204).send(null);
    },
  );

  fastify.post(
    '/logout-everywhere',
    {
      preHandler: fastify.requireUser,
      schema: {
        summary: 'Sign out on every device: all sessions of the user are revoked, this one too',
        tags: ['auth'],
        response: { [routes.logoutEverywhere.status]: routes.logoutEverywhere.response, 401: ErrorBody, 403: ErrorBody },
      },
    },
    async (request, reply) => {
      await signOutEverywhere(request, reply, request.user!.id);
      return reply.code(204).send(null);
    },
  );

  fastify.post(
    '/password',
    {
      preHandler: fastify.requireUser,
      config: perIp,
      schema: {
        summary: 'Change the password (the current one is required); signs out every other device',
        description: 'This browser gets a new session; every other session of the user is revoked.',
        tags: ['auth'],
        body: routes.changePassword.body,
        response: {
          [routes.changePassword.status]: routes.changePassword.response,
          400: ErrorBody,
          401: ErrorBody,
          403: ErrorBody,
          429: ErrorBody,
        },
      },
    },
    async (request, reply) => {
      const { currentPassword, password, confirmPassword } = request.body;
      const signedIn = request.user!;
      // A stolen session must not become a way around the sign-in limits.
      await countAttempt(db, 'login', { email: signedIn.email, clientAddress: request.ip });
      const user = await findUserById(db, signedIn.id);
      if (!user || !(await passwordMatches(user, currentPassword))) {
        throw formProblems([WRONG_CURRENT_PASSWORD]);
      }
      await clearAttempts(db, 'login', user.email, request.ip);

      const problems = [...(password !== confirmPassword ? [PASSWORDS_DIFFER] : []), ...passwordPolicyProblems(password, user.email)];
      if (problems.length > 0) throw formProblems(problems);

      const passwordHash = await hashPassword(password);
      const session = await db.transaction().execute(async (trx) => {
        await updatePasswordHash(trx, user.id, passwordHash);
        await spendOutstandingResetTokens(trx, user.id);
        return replaceAllSessions(trx, user.id, fastify.config.sessionTtlSeconds);
      });
      setSessionCookie(reply, session);
      return { user: toSessionUser(signedIn) };
    },
  );

  fastify.post(
    '/verify-email',
    {
      config: perIp,
      schema: {
        summary: "Confirm the account's e-mail address with the link from the sign-up e-mail",
        description:
          'Signed in to the account: verifies, ends its other sessions. Elsewhere only with a new password (else 409 PASSWORD_REQUIRED, link unspent), ending every session. Works once, for 24 h.',
        tags: ['auth'],
        body: routes.verifyEmail.body,
        response: { [routes.verifyEmail.status]: routes.verifyEmail.response, ...VERIFY_EMAIL_ERRORS },
      },
    },
    async (request, reply) => {
      const { token, password, confirmPassword } = request.body;
      const signedIn = request.user && request.sessionId ? { userId: request.user.id, sessionId: request.sessionId } : null;
      const newPassword = password === undefined ? null : { password, confirmPassword: confirmPassword ?? '' };
      const result = await confirmEmailAddress(db, { token, signedIn, newPassword });
      if (result.outcome === 'invalid') throw formProblems([VERIFICATION_LINK_INVALID]);
      if (result.outcome === 'password-required') throw new ApiError(409, 'PASSWORD_REQUIRED', VERIFICATION_PASSWORD_REQUIRED);
      if (result.outcome === 'password-refused') throw formProblems(result.problems);
      request.log.info({ userId: result.userId, newPassword: newPassword !== null }, 'e-mail address verified');
      return reply.code(204).send(null);
    },
  );

  fastify.post(
    '/verify-email/resend',
    {
      preHandler: fastify.requireUser,
      config: perIp,
      schema: {
        summary: 'Send the verification e-mail again',
        tags: ['auth'],
        response: {
          [routes.resendVerification.status]: routes.resendVerification.response,
          401: ErrorBody,
          403: ErrorBody,
          409: ErrorBody,
          429: ErrorBody,
        },
      },
    },
    async (request, reply) => {
      const user = await findUserById(db, request.user!.id);
      if (!user || user.email_verified) throw new ApiError(409, 'ALREADY_VERIFIED', ALREADY_VERIFIED);
      await countAttempt(db, 'verify-email', { email: user.email, clientAddress: request.ip });
      sendVerificationMail(request.log, user);
      return reply.code(202).send({ message: VERIFICATION_SENT });
    },
  );
};

export default auth;
