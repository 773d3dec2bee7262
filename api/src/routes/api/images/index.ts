import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync } from 'fastify';
import { IMAGE_CONTENT_SECURITY_POLICY } from '../../../plugins/external/helmet.js';

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
    // An SVG opened as a page (a link, a new tab) must not run script or load anything.
    setHeaders: (res) => {
      res.setHeader('content-security-policy', IMAGE_CONTENT_SECURITY_POLICY);
    },
  });
};

export default images;
