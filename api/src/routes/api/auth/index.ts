import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyBaseLogger } from 'fastify';
import {
  LoginBody,
  looksLikeEmail,
  PasswordResetAccepted,
  PasswordResetBody,
  PasswordResetConfirmBody,
  RegisterBody,
  SessionBody,
  toSessionUser,
  UserBody,
} from '../../../features/auth/auth.schema.js';
import {
  EMAIL_INVALID,
  EMAIL_TAKEN,
  NAME_MISSING,
  PASSWORDS_DIFFER,
  RESET_ACCEPTED,
  RESET_LINK_INVALID,
  WRONG_CREDENTIALS,
} from '../../../features/auth/auth-messages.js';
import { passwordMatches } from '../../../features/auth/credentials.js';
import {
  consumeResetToken,
  createResetToken,
  findResetTokenUser,
  passwordResetMail,
  resetLink,
  revokeOtherSessions,
  spendOutstandingResetTokens,
} from '../../../features/auth/password-reset.js';
import { assertAccountNotThrottled, perIpRateLimit, clearAttempts, recordAttempt } from '../../../features/auth/throttle.js';
import { createMailer } from '../../../features/mail/mailer.js';
import { clearSessionCookie, createSession, revokeSession, setSessionCookie } from '../../../features/sessions/sessions.js';
import { hashPassword } from '../../../features/users/password.js';
import { passwordPolicyProblems } from '../../../features/users/password-policy.js';
import {
  findUserByEmail,
  insertUser,
  isUniqueViolation,
  rowToAuthUser,
  updatePasswordHash,
} from '../../../features/users/users.repository.js';
import { ApiError, badRequest, ErrorBody } from '../../../lib/errors.js';
import { issueCsrfCookie } from '../../../plugins/app/csrf.js';

/** A form's problems as one 400: `details` lists each, for the page's error list. */
function formProblems(problems: string[]): ApiError {
  return badRequest(problems.length === 1 ? problems[0]! : 'Please correct the problems listed.', problems);
}

const auth: FastifyPluginAsyncTypebox = async (fastify) => {
  const { db } = fastify;
  const perIp = perIpRateLimit(fastify.config.authRateLimitPerMinute);

  const mailer = createMailer(fastify.config.mail);
  // Reset e-mails go out after the answer, so the answer takes as long whether or not the
  // account exists. Closing the app waits for those still on their way.
  const mailsInFlight = new Set<Promise<void>>();
  function inBackground(log: FastifyBaseLogger, task: () => Promise<void>) {
    const running: Promise<void> = task()
      .catch((err: unknown) => log.error({ err }, 'password reset e-mail could not be sent'))
      .finally(() => mailsInFlight.delete(running));
    mailsInFlight.add(running);
  }
  fastify.addHook('onClose', async () => {
    await Promise.allSettled([...mailsInFlight]);
    mailer.close();
  });

  fastify.get(
    '/session',
    {
      schema: {
        summary: 'Who is signed in; also hands out the csrf cookie',
        tags: ['auth'],
        response: { 200: SessionBody },
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
        body: RegisterBody,
        response: { 201: UserBody, 400: ErrorBody, 403: ErrorBody, 409: ErrorBody, 429: ErrorBody },
      },
    },
    async (request, reply) => {
      const displayName = request.body.displayName.trim();
      const email = request.body.email.trim();
      const { password, confirmPassword } = request.body;

      await assertAccountNotThrottled(db, 'register', email);
      await recordAttempt(db, 'register', email);

      const problems: string[] = [];
      if (!displayName) problems.push(NAME_MISSING);
      if (!looksLikeEmail(email)) problems.push(EMAIL_INVALID);
      if (password !== confirmPassword) problems.push(PASSWORDS_DIFFER);
      problems.push(...passwordPolicyProblems(password, email));
      if (problems.length > 0) throw formProblems(problems);

      const emailTaken = new ApiError(409, 'EMAIL_TAKEN', EMAIL_TAKEN, { details: [EMAIL_TAKEN] });
      if (await findUserByEmail(db, email)) throw emailTaken;
      const passwordHash = await hashPassword(password);
      let user;
      try {
        user = await insertUser(db, { email, display_name: displayName, roles: ['user'], password_hash: passwordHash });
      } catch (err) {
        // Two sign-ups of one e-mail at once: the unique index decides, the loser hears why.
        if (isUniqueViolation(err)) throw emailTaken;
        throw err;
      }

      if (request.sessionId) await revokeSession(db, request.sessionId);
      setSessionCookie(reply, await createSession(db, user.id, fastify.config.sessionTtlSeconds));
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
        body: LoginBody,
        response: { 200: UserBody, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 429: ErrorBody },
      },
    },
    async (request, reply) => {
      const { email, password } = request.body;
      await assertAccountNotThrottled(db, 'login', email);

      const user = await findUserByEmail(db, email);
      if (!(await passwordMatches(user, password)) || !user) {
        await recordAttempt(db, 'login', email);
        // One answer for an unknown e-mail and a wrong password alike.
        throw new ApiError(401, 'WRONG_CREDENTIALS', WRONG_CREDENTIALS, { details: [WRONG_CREDENTIALS] });
      }
      await clearAttempts(db, 'login', email);

      // Signing in on top of an old session replaces it rather than leaving it alive without its cookie.
      if (request.sessionId) await revokeSession(db, request.sessionId);
      setSessionCookie(reply, await createSession(db, user.id, fastify.config.sessionTtlSeconds));
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
        response: { 204: { type: 'null' }, 401: ErrorBody, 403: ErrorBody },
      },
    },
    async (request, reply) => {
      await revokeSession(db, request.sessionId!);
      clearSessionCookie(reply);
      return reply.code(204).send();
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
        body: PasswordResetBody,
        response: { 202: PasswordResetAccepted, 400: ErrorBody, 403: ErrorBody, 429: ErrorBody },
      },
    },
    async (request, reply) => {
      const email = request.body.email.trim();
      if (!looksLikeEmail(email)) throw formProblems([EMAIL_INVALID]);
      await assertAccountNotThrottled(db, 'password-reset', email);
      await recordAttempt(db, 'password-reset', email);

      inBackground(request.log, async () => {
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
        body: PasswordResetConfirmBody,
        response: { 204: { type: 'null' }, 400: ErrorBody, 403: ErrorBody, 429: ErrorBody },
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
        await revokeOtherSessions(trx, owner.userId, request.user?.id === owner.userId ? request.sessionId : null);
      });
      // Whoever guessed at the old password is locked out by the new one; the owner may sign in at once.
      await clearAttempts(db, 'login', owner.email);
      return reply.code(204).send();
    },
  );
};

export default auth;
