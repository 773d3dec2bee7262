import type { FastifyPluginAsync } from 'fastify';
import { PICTURE_KEY } from '../../../features/pictures/picture-storage.js';
import { IMAGE_CONTENT_SECURITY_POLICY } from '../../../plugins/external/helmet.js';
import { notFound } from '../../../lib/errors.js';

/**
 * Uploaded pictures' files, from the picture storage (local disk or the bucket). A key names its
 * content (a hash of the upload), so an answer never changes: browsers and proxies keep it a year
 * without asking again.
 */
const pictures: FastifyPluginAsync = async (fastify) => {
  fastify.get<{ Params: { '*': string } }>(
    '/*',
    { schema: { summary: 'An uploaded picture file (immutable)', tags: ['products'], hide: true } },
    async (request, reply) => {
      const key = request.params['*'];
      if (!PICTURE_KEY.test(key)) throw notFound('Picture not found');
      const stored = await fastify.pictureStorage.get(key);
      if (!stored) throw notFound('Picture not found');
      reply
        .header('content-type', stored.contentType)
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('content-security-policy', IMAGE_CONTENT_SECURITY_POLICY)
        .header('x-content-type-options', 'nosniff');
      if (stored.contentLength !== null) reply.header('content-length', stored.contentLength);
      return reply.send(stored.body);
    },
  );
};

export default pictures;
