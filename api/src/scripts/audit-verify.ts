import { verifyAuditChain } from '../features/audit/audit-log.js';
import { openCliDatabase } from './cli-database.js';

// npm run audit:verify -w api: exit 0 when the audit log's hash chain holds, 1 naming the first broken row.
const { db, label } = await openCliDatabase();
try {
  const result = await verifyAuditChain(db);
  if (result.ok) {
    console.log(`${label}: audit log intact (${result.checked} rows)`);
  } else {
    console.error(`${label}: audit log broken at row ${result.seq}: ${result.problem} (${result.checked} rows intact before it)`);
    process.exitCode = 1;
  }
} finally {
  await db.destroy();
}
