import { seedDemoData } from '../db/seed/seed.js';
import { openCliDatabase } from './cli-database.js';

const { db, label } = await openCliDatabase();
try {
  const { accountsCreated, productsCreated } = await seedDemoData(db);
  console.log(`${label}: ${accountsCreated} demo account(s) and ${productsCreated} demo product(s) created`);
  if (productsCreated === 0) console.log('The catalogue already had products, so it was left as it is.');
} finally {
  await db.destroy();
}
