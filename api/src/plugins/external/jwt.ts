import jwt from '@fastify/jwt';
import fp from 'fastify-plugin';

/** Session JWTs travel in the httpOnly `session` cookie; each names a revocable row in `sessions`. */
export default fp(
  async (fastify) => {
    await fastify.register(jwt, {
      secret: fastify.config.jwtSecret,
      cookie: { cookieName: 'session', signed: false },
      // request.user belongs to plugins/app/authentication.ts (the DB-backed user), not the raw token.
      decoratorName: 'sessionToken',
      sign: { algorithm: 'HS256' },
      verify: { algorithms: ['HS256'] },
    });
  },
  { name: 'jwt', dependencies: ['cookie'] },
);
