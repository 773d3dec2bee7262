import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import fp from 'fastify-plugin';

/**
 * OpenAPI built from the route schemas, browsable at /api/docs outside production only: a
 * production shop does not publish a map of its API (the document still exists in memory, for
 * `fastify.swagger()`).
 */
export default fp(
  async (fastify) => {
    await fastify.register(swagger, {
      openapi: {
        info: {
          title: 'Boat shop API',
          description: 'Catalogue, accounts, orders and payments of the boat shop.',
          version: '0.1.0',
        },
        components: {
          securitySchemes: {
            session: { type: 'apiKey', in: 'cookie', name: 'session' },
          },
        },
      },
    });
    if (fastify.config.isProduction) return;
    // The page's own policy (its scripts by hash) replaces the API's allow-nothing one.
    await fastify.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });
  },
  { name: 'swagger' },
);
