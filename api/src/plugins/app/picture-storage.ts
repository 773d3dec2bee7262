import fp from 'fastify-plugin';
import { localPictureStorage } from '../../features/pictures/local-storage.js';
import type { PictureStorage } from '../../features/pictures/picture-storage.js';
import { s3PictureStorage } from '../../features/pictures/s3-storage.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Where uploaded pictures' files are kept (config.pictures.storage). */
    pictureStorage: PictureStorage;
  }
}

export default fp(
  async (fastify) => {
    const { storage } = fastify.config.pictures;
    fastify.decorate('pictureStorage', storage.kind === 's3' ? s3PictureStorage(storage) : localPictureStorage(storage.dir));
  },
  { name: 'picture-storage' },
);
