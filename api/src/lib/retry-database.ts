import { isDatabaseUnavailable } from '../db/database-errors.js';

/**
 * Runs `write` again while the database is unreachable (a restart, a failover), up to `attempts`
 * times `delayMs` apart; any other error, or the last, is thrown. For a write that records what
 * has already happened outside the database (an e-mail handed to the SMTP server): giving up at
 * once would have it done again.
 */
export async function retryWhileDatabaseUnavailable<T>(
  write: () => Promise<T>,
  { attempts = 30, delayMs = 1_000 }: { attempts?: number; delayMs?: number } = {},
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (error) {
      if (attempt >= attempts || !isDatabaseUnavailable(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, delayMs));
    }
  }
}
