import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import { decodeCursor, encodeCursor } from './products.repository.js';

export interface SitemapEntry {
  id: string;
  /** ISO 8601; products are not edited in place often enough to need more than their creation date */
  lastModified: string;
}

export interface SitemapEntryPage {
  data: SitemapEntry[];
  cursor: string | null;
  isLastPage: boolean;
}

/**
 * Product ids oldest first, keyset-paged on (created_at, id) with the catalogue's own cursor
 * format: a new product lands on the last page, so the earlier sitemap files stay as they were
 * (and every replica of the shell computes the same files from the same rows).
 */
export async function listSitemapEntries(db: Db, options: { after?: string | undefined; limit: number }): Promise<SitemapEntryPage> {
  const after = options.after ? decodeCursor(options.after, false) : undefined;
  let select = db.selectFrom('products').select(['id', 'created_at']);
  if (after) select = select.where((eb) => eb(eb.refTuple('created_at', 'id'), '>', eb.tuple(after.createdAt, after.id)));
  const rows = await select
    .orderBy('created_at', 'asc')
    .orderBy('id', 'asc')
    .limit(options.limit + 1)
    .execute();
  const isLastPage = rows.length <= options.limit;
  const page = rows.slice(0, options.limit);
  const last = page.at(-1);
  return {
    data: page.map((row) => ({ id: row.id, lastModified: row.created_at.toISOString() })),
    cursor: isLastPage || !last ? null : encodeCursor({ createdAt: last.created_at, id: last.id }),
    isLastPage,
  };
}

/**
 * Where each sitemap file of `size` products starts: `null` for the first, then the cursor of
 * the row that ends the previous file. One index-only pass over (created_at, id), so the sitemap
 * index needs neither the ids themselves nor an OFFSET.
 */
export async function listSitemapPageStarts(db: Db, size: number): Promise<{ total: number; starts: (string | null)[] }> {
  const { rows } = await sql<{ id: string; created_at: Date; position: number; total: number }>`
    select id, created_at, position, total from (
      select id, created_at,
             row_number() over (order by created_at, id)::int as position,
             count(*) over ()::int as total
      from products
    ) numbered
    where position % ${size} = 0 or position = 1
    order by position
  `.execute(db);
  const total = rows[0]?.total ?? 0;
  if (total === 0) return { total, starts: [] };
  const starts: (string | null)[] = [null];
  for (const row of rows) {
    if (row.position % size === 0 && row.position < total) starts.push(encodeCursor({ createdAt: new Date(row.created_at), id: row.id }));
  }
  return { total, starts };
}
