// The API as bench/run.ts measures it: the real app, plus one bare route as the yardstick,
// on a catalogue big enough for a page 500, or (BENCH_SEARCH_BOATS) the search bench's catalogue.
// Prints one "BENCH_READY {json}" line when listening.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify from 'fastify';
import fp from 'fastify-plugin';
import { sql } from 'kysely';
import app, { serverOptions } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { encodeCursor } from '../src/features/products/products.repository.js';
import { seedSearchCatalogue } from './search-seed.js';

const PRODUCTS = 6000;
const PAGE_SIZE = 6;
const DEEP_PAGE = 500;

const config = { ...loadConfig(), seedDemoData: false };
const server = Fastify(serverOptions(config)).withTypeProvider<TypeBoxTypeProvider>();
await server.register(fp(app), { config });
server.get('/bench/bare', async () => ({ ok: true }));
await server.ready();

const db = server.db;
const searchBoats = Number(process.env.BENCH_SEARCH_BOATS ?? 0);
if (searchBoats > 0) {
  // The search bench's catalogue (bench/search-seed.ts), kept between runs on the same database.
  const started = Date.now();
  const outcome = await seedSearchCatalogue(db, searchBoats);
  if (outcome === 'seeded') process.stderr.write(`  seeded ${searchBoats} boats in ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
  await server.listen({ host: '127.0.0.1', port: config.port });
  console.log(`BENCH_READY ${JSON.stringify({ port: config.port, deepCursor: '', productId: '' })}`);
} else {
  await seedListCatalogue();
}

async function seedListCatalogue() {
  await sql`truncate table products cascade`.execute(db);
  // Three products per minute: many share a created_at, as bulk imports do, so the id tiebreak is exercised.
  await sql`
  insert into products (name, thumbnail_url, price_cents, description_html, category, created_at)
  select 'Bench boat ' || g, '/api/images/aldren-22-daysailer.svg', 2000000 + g,
         '<p>A boat for the bench.</p>', case when g % 2 = 0 then 'yachts' else 'sailing-boats' end,
         timestamptz '2024-01-01 00:00:00+00' + (g / 3) * interval '1 minute'
  from generate_series(1, ${PRODUCTS}) as g
`.execute(db);
  await sql`analyze products`.execute(db);

  // Page N starts after the last row of page N - 1.
  const lastOfPreviousPage = await db
    .selectFrom('products')
    .select(['id', 'created_at'])
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .offset((DEEP_PAGE - 1) * PAGE_SIZE - 1)
    .limit(1)
    .executeTakeFirstOrThrow();
  const deepCursor = encodeCursor({ createdAt: lastOfPreviousPage.created_at, id: lastOfPreviousPage.id });
  const { id: productId } = await db.selectFrom('products').select('id').limit(1).executeTakeFirstOrThrow();

  await server.listen({ host: '127.0.0.1', port: config.port });
  console.log(`BENCH_READY ${JSON.stringify({ port: config.port, deepCursor, productId })}`);
}

const stop = async () => {
  await server.close();
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
