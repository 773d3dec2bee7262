import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import fp from 'fastify-plugin';

/** OpenAPI built from the route schemas, browsable at /api/docs. */
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
    await fastify.register(swaggerUi, { routePrefix: '/api/docs' });
  },
  { name: 'swagger' },
);
