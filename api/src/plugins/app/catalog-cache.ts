import fp from 'fastify-plugin';
import { CatalogCache } from '../../features/products/catalog-cache.js';

/** The channel the products table's statement trigger notifies (migration 2024_11_22_000000). */
export const PRODUCTS_CHANGED_CHANNEL = 'products_changed';

declare module 'fastify' {
  interface FastifyInstance {
    /** Read cache of GET /api/products and /api/products/:id; see features/products/catalog-cache.ts. */
    catalogCache: CatalogCache;
  }
}

/**
 * One cache per process, kept right across replicas: it is used only while this process LISTENs
 * for `products_changed`, and every notification (whoever wrote, wherever) empties it.
 */
export default fp(
  async (fastify) => {
    const cache = new CatalogCache(fastify.config.catalogCache);
    fastify.decorate('catalogCache', cache);
    if (!cache.configured) return;
    await fastify.listenToDatabase(PRODUCTS_CHANGED_CHANNEL, {
      onNotification: (payload) => cache.clear(payload),
      onListening: () => cache.resume(),
      onLost: () => cache.suspend(),
    });
    if (!cache.enabled) fastify.log.warn('catalogue cache off until database notifications are heard');
  },
  { name: 'catalog-cache', dependencies: ['database'] },
);
