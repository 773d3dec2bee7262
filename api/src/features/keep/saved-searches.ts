import { MAX_SAVED_SEARCHES, type SavedSearch, type SavedSearchBody } from '@boatshop/contract';
import type { Kysely, Selectable } from 'kysely';
import type { Database, Db } from '../../db/database.js';
import { conflict, notFound } from '../../lib/errors.js';
import { recordConsent } from '../privacy/privacy-requests.js';
import { filtersOf } from '../search/search-filters.js';
import type { SavedSearchesTable } from './keep.table.js';

/**
 * A shopper's saved searches: the search page's choices under a name, optionally with a daily
 * e-mail of new matching boats. Asking for alerts records the alerts consent (privacy); only
 * the owner lists or deletes a search.
 */

type Row = Selectable<SavedSearchesTable>;

export function toSavedSearch(row: Row): SavedSearch {
  return {
    id: row.id,
    name: row.name,
    path: row.path,
    query: row.query,
    alerts: row.alerts,
    createdAt: row.created_at.toISOString(),
    lastAlertedAt: row.last_alerted_at ? row.last_alerted_at.toISOString() : null,
  };
}

export async function listSavedSearches(db: Db, userId: string): Promise<SavedSearch[]> {
  const rows = await db
    .selectFrom('saved_searches')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .execute();
  return rows.map(toSavedSearch);
}

/** The latest answer to the alerts consent: only a shopper who agreed gets alert e-mails. */
export async function alertsConsented(db: Db, userId: string): Promise<boolean> {
  const latest = await db
    .selectFrom('consents')
    .select('granted')
    .where('user_id', '=', userId)
    .where('topic', '=', 'boat_alerts')
    .orderBy('recorded_at', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirst();
  return latest?.granted ?? false;
}

export async function saveSearch(db: Kysely<Database>, userId: string, body: SavedSearchBody): Promise<SavedSearch> {
  // The same reading the search applies (400 for a list too long or a bad value), before storing.
  filtersOf({ ...body.query, sort: 'newest', limit: 1 });
  return db.transaction().execute(async (trx) => {
    // Holding the user row makes one account's saves take turns, so the limit holds.
    await trx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().executeTakeFirstOrThrow();
    const { count } = await trx
      .selectFrom('saved_searches')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    if (Number(count) >= MAX_SAVED_SEARCHES) {
      throw conflict('SAVED_SEARCHES_FULL', `You can save ${MAX_SAVED_SEARCHES} searches at most: delete one first.`);
    }
    if (body.alerts && !(await alertsConsented(trx, userId))) await recordConsent(trx, userId, 'boat_alerts', true);
    const row = await trx
      .insertInto('saved_searches')
      .values({ user_id: userId, name: body.name.trim(), path: body.path, query: JSON.stringify(body.query), alerts: body.alerts })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toSavedSearch(row);
  });
}

export async function deleteSavedSearch(db: Db, userId: string, id: string): Promise<void> {
  const deleted = await db.deleteFrom('saved_searches').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  // Another account's search answers as if it did not exist.
  if (Number(deleted.numDeletedRows) === 0) throw notFound('This saved search is not yours or was deleted.');
}

/** Stops one saved search's alerts (the unsubscribe link); its name, or null when it is gone. */
export async function stopAlerts(db: Db, id: string): Promise<string | null> {
  const row = await db.updateTable('saved_searches').set({ alerts: false }).where('id', '=', id).returning('name').executeTakeFirst();
  return row?.name ?? null;
}
