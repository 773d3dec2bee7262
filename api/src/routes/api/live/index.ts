import { LiveSchema } from '@boatshop/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

/**
 * Liveness: the process is up and its event loop answers. Nothing outside the process is asked,
 * so a database outage never makes an orchestrator restart every replica at once.
 */
const live: FastifyPluginAsyncTypebox = async (fastify) => {
  fastify.get(
    '/',
    { schema: { summary: 'Liveness: the process answers (asks nothing else)', tags: ['health'], response: { 200: LiveSchema } } },
    async () => ({ status: 'ok' as const }),
  );
};

export default live;
