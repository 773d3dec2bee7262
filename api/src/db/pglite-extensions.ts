import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';

/**
 * The PostgreSQL extensions the migrations create, loaded into every embedded database (PGlite
 * ships contrib extensions as separate bundles that must be named when the database opens).
 * btree_gist: the viewings' exclusion constraint compares a uuid with `=` inside a GiST index.
 */
export const PGLITE_EXTENSIONS = { btree_gist };
