import fp from 'fastify-plugin';
import { seedDemoData } from '../../db/seed/seed.js';

/** A newcomer's `npm start` opens a shop with boats in it and accounts to sign in with. */
export default fp(
  async (fastify) => {
    if (!fastify.config.seedDemoData) return;
    const result = await seedDemoData(fastify.db);
    if (result.accountsCreated || result.productsCreated) fastify.log.info(result, 'demo data seeded');
  },
  { name: 'demo-data', dependencies: ['database'] },
);
