import fp from 'fastify-plugin';

const PRIVATE = 'private, no-store';

/**
 * An answer for a signed-in person (their orders, an admin's lists) or one that sets a cookie is
 * never to be stored: not by a shared cache (a CDN, a company proxy) that would hand it to the
 * next person, nor by the browser's disk cache after sign-out. Routes that set their own
 * Cache-Control keep it; the public catalogue and the pictures, asked for without a session,
 * are left alone.
 */
export default fp(
  async (fastify) => {
    fastify.addHook('onSend', async (request, reply, payload) => {
      if (reply.hasHeader('cache-control')) return payload;
      if (request.user !== null || reply.hasHeader('set-cookie')) reply.header('cache-control', PRIVATE);
      return payload;
    });
  },
  { name: 'private-responses', dependencies: ['authentication'] },
);
