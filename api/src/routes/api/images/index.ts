import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync } from 'fastify';

/**
 * The demo pictures the project draws and ships (api/public/images, made by
 * `npm run images:generate -w api`). Never downloaded from elsewhere at run time.
 */
const images: FastifyPluginAsync = async (fastify) => {
  await fastify.register(fastifyStatic, {
    root: fastify.config.imagesDir,
    prefix: '/',
    decorateReply: false,
    index: false,
    list: false,
    // Pictures rarely change; ETag/Last-Modified let browsers revalidate once the month is over.
    cacheControl: true,
    maxAge: '30d',
  });
};

export default images;
