import { grantRole } from '../features/users/users.repository.js';
import { openCliDatabase } from './cli-database.js';

const email = process.argv[2];
if (!email) {
  console.error('Usage: npm run admin:grant -w api -- <email>');
  process.exit(2);
}

const { db, label } = await openCliDatabase();
try {
  const user = await grantRole(db, email, 'owner');
  if (!user) {
    console.error(`${label}: no user with e-mail ${email}`);
    process.exitCode = 1;
  } else {
    console.log(`${label}: ${user.email} now has roles ${user.roles.join(', ')}`);
  }
} finally {
  await db.destroy();
}
