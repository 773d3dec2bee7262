import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import { queueMail } from '../leads/lead-mails.js';
import { viewingReminderMail } from './viewing-mails.js';
import { viewingFacts } from './viewing-announce.js';
import { claimViewingReminders } from './viewings.repository.js';

export const VIEWING_REMINDER_QUEUE = 'viewings.reminders';

/**
 * The reminder the day before: every booked viewing or sea trial starting within 24 hours gets one e-mail,
 * claimed and queued in one transaction (a rescheduled viewing is reminded again). Returns how many.
 */
export async function remindViewings(db: Kysely<Database>, publicUrl: string): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const due = await claimViewingReminders(trx);
    for (const viewing of due) {
      // An account's booking goes to the account's address; a guest's (not claimed yet) to the guest's.
      const user = viewing.user_id
        ? await trx.selectFrom('users').select(['display_name', 'email']).where('id', '=', viewing.user_id).executeTakeFirstOrThrow()
        : { display_name: viewing.guest_name ?? '', email: viewing.guest_email ?? '' };
      await queueMail(
        trx,
        viewingReminderMail({
          to: user.email,
          buyerName: user.display_name,
          manageLink: `${publicUrl}/viewings/${viewing.id}`,
          facts: await viewingFacts(trx, viewing),
        }),
      );
    }
    return due.length;
  });
}
