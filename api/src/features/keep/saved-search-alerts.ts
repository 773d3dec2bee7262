import { ALERT_MAX_BOATS, type Product } from '@boatshop/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import { escapeHtml } from '../../lib/html.js';
import { formatEuro } from '../../lib/money.js';
import { queueMail } from '../leads/lead-mails.js';
import type { Mail } from '../mail/mailer.js';
import { newlyListedMatches } from '../search/search.repository.js';
import { alertsConsented } from './saved-searches.js';
import { unsubscribeToken } from './unsubscribe-token.js';

export const SAVED_SEARCH_ALERTS_QUEUE = 'keep.saved-search-alerts';

/** The UTC day of `now`, YYYY-MM-DD: a saved search gets at most one alert per such day. */
export const alertDay = (now: Date) => now.toISOString().slice(0, 10);

export function savedSearchAlertMail(options: {
  to: string;
  name: string;
  searchLink: string;
  /** the signed token of the saved search (unsubscribe-token.ts) */
  unsubscribeToken: string;
  boats: Product[];
  more: boolean;
  publicUrl: string;
}): Mail {
  const { boats, publicUrl } = options;
  const token = encodeURIComponent(options.unsubscribeToken);
  // The link in the text opens the shop's page, which stops the alerts; the header's address is
  // the API's, for a mail client's one-click POST (RFC 8058).
  const unsubscribeLink = `${publicUrl}/alerts/unsubscribe?token=${token}`;
  const line = (boat: Product) => `${boat.name}, ${formatEuro(boat.priceCents)}`;
  const intro =
    boats.length === 1
      ? `One new boat matches your saved search “${options.name}”:`
      : `${boats.length} new boats match your saved search “${options.name}”:`;
  const more = options.more ? 'More new boats match: open the search to see them all.' : null;
  const text = [
    intro,
    ...boats.map((boat) => `- ${line(boat)}: ${publicUrl}/product/${boat.id}`),
    ...(more ? [more] : []),
    `Open the search: ${options.searchLink}`,
    `Stop these e-mails: ${unsubscribeLink}`,
  ].join('\n\n');
  const html = [
    `<p>${escapeHtml(intro)}</p>`,
    `<ul>${boats.map((boat) => `<li><a href="${escapeHtml(`${publicUrl}/product/${boat.id}`)}">${escapeHtml(line(boat))}</a></li>`).join('')}</ul>`,
    more ? `<p>${escapeHtml(more)}</p>` : '',
    `<p><a href="${escapeHtml(options.searchLink)}">Open the search</a></p>`,
    `<p><a href="${escapeHtml(unsubscribeLink)}">Stop these e-mails</a></p>`,
  ].join('\n');
  return {
    to: options.to,
    subject: `New boats for your saved search “${options.name}”`,
    text,
    html,
    headers: {
      'List-Unsubscribe': `<${publicUrl}/api/saved-searches/unsubscribe?token=${token}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  };
}

/**
 * The daily alert run: each saved search with alerts not yet handled today is claimed by a
 * conditional update (its day set), its new matching boats read, its window moved on and its one
 * e-mail written to the outbox, all in one transaction. Two runs at once claim each search once; a
 * crash before the commit leaves neither the day nor the e-mail, and the outbox sends what was
 * committed exactly once. Returns how many e-mails were written.
 */
export async function sendSavedSearchAlerts(
  db: Kysely<Database>,
  options: { publicUrl: string; secret: string; now?: Date },
): Promise<number> {
  const now = options.now ?? new Date();
  const day = alertDay(now);
  const due = await db
    .selectFrom('saved_searches')
    .select('id')
    .where('alerts', '=', true)
    .where((eb) => eb.or([eb('alerted_on', 'is', null), eb('alerted_on', '<', day)]))
    .orderBy('id')
    .execute();
  let sent = 0;
  for (const { id } of due) {
    const wrote = await db.transaction().execute(async (trx) => {
      const search = await trx
        .updateTable('saved_searches')
        .set({ alerted_on: day })
        .where('id', '=', id)
        .where('alerts', '=', true)
        .where((eb) => eb.or([eb('alerted_on', 'is', null), eb('alerted_on', '<', day)]))
        .returningAll()
        .executeTakeFirst();
      if (!search) return false; // another run took it, or its alerts stopped meanwhile
      // Boats listed while the shopper had not agreed are never sent later: the window moves on anyway.
      await trx.updateTable('saved_searches').set({ alerted_until: now }).where('id', '=', id).execute();
      if (!(await alertsConsented(trx, search.user_id))) return false;
      const boats = await newlyListedMatches(trx, search.query, { since: search.alerted_until, until: now, limit: ALERT_MAX_BOATS + 1 });
      if (boats.length === 0) return false;
      const user = await trx.selectFrom('users').select('email').where('id', '=', search.user_id).executeTakeFirstOrThrow();
      await queueMail(
        trx,
        savedSearchAlertMail({
          to: user.email,
          name: search.name,
          searchLink: `${options.publicUrl}${search.path}`,
          unsubscribeToken: unsubscribeToken(options.secret, search.id),
          boats: boats.slice(0, ALERT_MAX_BOATS),
          more: boats.length > ALERT_MAX_BOATS,
          publicUrl: options.publicUrl,
        }),
      );
      await trx.updateTable('saved_searches').set({ last_alerted_at: now }).where('id', '=', id).execute();
      return true;
    });
    if (wrote) sent += 1;
  }
  return sent;
}
