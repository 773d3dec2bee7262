import { openCliDatabase } from './cli-database.js';

const { db, label } = await openCliDatabase();
console.log(`${label}: schema is up to date`);
await db.destroy();
