import { MAX_SAVED_ADDRESSES, SAVED_ADDRESS_KINDS, type SavedAddress, type SavedAddressBody } from '@boatshop/contract';
import type { Selectable, Transaction } from 'kysely';
import type { Database, Db } from '../../db/database.js';
import { badRequest, conflict, notFound } from '../../lib/errors.js';
import type { SavedAddressesTable } from './saved-addresses.table.js';

/**
 * A shopper's address book. Every change runs in one transaction holding the shopper's user row,
 * so two changes of one account take turns: each kind that has addresses keeps exactly one
 * default, and the partial unique index refuses a second default whatever happens. Orders copy
 * the address they use, so nothing here ever changes an order.
 */

type Row = Selectable<SavedAddressesTable>;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function toSavedAddress(row: Row): SavedAddress {
  return {
    id: row.id,
    kind: row.kind,
    isDefault: row.is_default,
    name: row.name,
    address: row.address,
    updatedAt: row.updated_at.toISOString(),
  };
}

/** The name and address as stored: trimmed, and refused when a character cannot be stored. */
function cleaned(body: SavedAddressBody) {
  const { address } = body;
  // A lone UTF-16 surrogate survives JSON.parse but not PostgreSQL's jsonb (a 500 otherwise).
  if ([body.name, ...Object.values(address)].some((text) => LONE_SURROGATE.test(text))) {
    throw badRequest('Invalid request: the address holds a broken character (a lone UTF-16 surrogate)');
  }
  return {
    name: body.name.trim(),
    address: {
      line1: address.line1.trim(),
      city: address.city.trim(),
      state: address.state.trim(),
      postal_code: address.postal_code.trim(),
      country: address.country,
    },
  };
}

/** The shopper's addresses: defaults first, then the newest. */
export async function listSavedAddresses(db: Db, userId: string): Promise<SavedAddress[]> {
  const rows = await db
    .selectFrom('saved_addresses')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('kind', 'desc')
    .orderBy('is_default', 'desc')
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .execute();
  return rows.map(toSavedAddress);
}

/**
 * Holds the shopper's user row until the transaction ends: changes to one address book take turns
 * (FOR NO KEY UPDATE, so rows that only reference the shopper are not blocked).
 */
async function lockAccount(trx: Transaction<Database>, userId: string): Promise<void> {
  await trx.selectFrom('users').select('id').where('id', '=', userId).forNoKeyUpdate().executeTakeFirstOrThrow();
}

async function ownRow(trx: Transaction<Database>, userId: string, id: string): Promise<Row> {
  const row = await trx.selectFrom('saved_addresses').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  // Another account's address answers as if it did not exist.
  if (!row) throw notFound('This address is not in your address book.');
  return row;
}

/** Makes `id` the only default of its kind. */
async function setDefault(trx: Transaction<Database>, row: Row): Promise<void> {
  await trx
    .updateTable('saved_addresses')
    .set({ is_default: false })
    .where('user_id', '=', row.user_id)
    .where('kind', '=', row.kind)
    .where('is_default', '=', true)
    .where('id', '<>', row.id)
    .execute();
  await trx.updateTable('saved_addresses').set({ is_default: true }).where('id', '=', row.id).execute();
}

/** A kind that has addresses but no default (its default was deleted or moved) gets its newest one. */
async function keepADefault(trx: Transaction<Database>, userId: string): Promise<void> {
  for (const kind of SAVED_ADDRESS_KINDS) {
    const rows = await trx
      .selectFrom('saved_addresses')
      .select(['id', 'is_default'])
      .where('user_id', '=', userId)
      .where('kind', '=', kind)
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .execute();
    if (rows.length && !rows.some((row) => row.is_default)) {
      await trx.updateTable('saved_addresses').set({ is_default: true }).where('id', '=', rows[0]!.id).execute();
    }
  }
}

async function reread(trx: Transaction<Database>, id: string): Promise<SavedAddress> {
  return toSavedAddress(await trx.selectFrom('saved_addresses').selectAll().where('id', '=', id).executeTakeFirstOrThrow());
}

export async function createSavedAddress(db: Db, userId: string, body: SavedAddressBody): Promise<SavedAddress> {
  const { name, address } = cleaned(body);
  return db.transaction().execute(async (trx) => {
    await lockAccount(trx, userId);
    const { count } = await trx
      .selectFrom('saved_addresses')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    if (Number(count) >= MAX_SAVED_ADDRESSES) {
      throw conflict('ADDRESS_BOOK_FULL', `Your address book holds ${MAX_SAVED_ADDRESSES} addresses at most: delete one first.`);
    }
    const row = await trx
      .insertInto('saved_addresses')
      .values({ user_id: userId, kind: body.kind, name, address: JSON.stringify(address) })
      .returningAll()
      .executeTakeFirstOrThrow();
    if (body.isDefault) await setDefault(trx, row);
    await keepADefault(trx, userId);
    return reread(trx, row.id);
  });
}

export async function updateSavedAddress(db: Db, userId: string, id: string, body: SavedAddressBody): Promise<SavedAddress> {
  const { name, address } = cleaned(body);
  return db.transaction().execute(async (trx) => {
    await lockAccount(trx, userId);
    const row = await ownRow(trx, userId, id);
    // Moving to the other kind leaves the old kind's default behind (keepADefault picks another).
    const moved = row.kind !== body.kind;
    const updated = await trx
      .updateTable('saved_addresses')
      .set({ kind: body.kind, name, address: JSON.stringify(address), updated_at: new Date(), ...(moved ? { is_default: false } : {}) })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    if (body.isDefault) await setDefault(trx, updated);
    await keepADefault(trx, userId);
    return reread(trx, id);
  });
}

export async function deleteSavedAddress(db: Db, userId: string, id: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await lockAccount(trx, userId);
    await ownRow(trx, userId, id);
    await trx.deleteFrom('saved_addresses').where('id', '=', id).execute();
    await keepADefault(trx, userId);
  });
}

export async function makeDefaultAddress(db: Db, userId: string, id: string): Promise<SavedAddress[]> {
  await db.transaction().execute(async (trx) => {
    await lockAccount(trx, userId);
    await setDefault(trx, await ownRow(trx, userId, id));
  });
  return listSavedAddresses(db, userId);
}
