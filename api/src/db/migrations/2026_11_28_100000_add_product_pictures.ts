import { sql, type Kysely } from 'kysely';

// Frozen in time: never import app code here; later changes come as new migrations.

// A boat's pictures, ordered (docs/adr/0041). A picture is either linked (an address the admin
// typed, or a shipped demo picture) or uploaded (its variants stored under a content-hashed key).
// The product's thumbnail_url stays as the card picture: the first picture's address, kept by
// the pictures code in the same transaction. Every boat's existing picture becomes its first,
// linked picture, with the boat's name as its text alternative (what the product page showed).

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table product_pictures (
      id uuid primary key default gen_random_uuid(),
      product_id uuid not null references products (id) on delete cascade,
      position integer not null check (position between 0 and 59),
      alt text not null default '' check (char_length(alt) <= 300),
      url text check (char_length(url) between 1 and 2048),
      storage_key text check (storage_key ~ '^[0-9a-f]{32}$'),
      width integer check (width > 0),
      height integer check (height > 0),
      variant_widths integer[],
      placeholder text check (char_length(placeholder) <= 4000),
      created_at timestamptz(3) not null default now(),
      constraint product_pictures_one_source check ((url is null) <> (storage_key is null)),
      constraint product_pictures_upload_complete check (
        storage_key is null
        or (width is not null and height is not null and variant_widths is not null and placeholder is not null)
      ),
      -- Checked at the end of each statement, so one UPDATE can swap positions.
      constraint product_pictures_position unique (product_id, position) deferrable initially immediate,
      constraint product_pictures_same_upload unique (product_id, storage_key)
    )
  `.execute(db);
  await sql`
    insert into product_pictures (product_id, position, url, alt)
    select id, 0, thumbnail_url, left(name, 300) from products
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('product_pictures').execute();
}
