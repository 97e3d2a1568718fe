// The PostgreSQL extensions the schema uses (pg_trgm: the search by name, migration 0021), as every
// PGlite opening a data directory must load them; a PostgreSQL server has them in its contrib package.
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

export const PGLITE_EXTENSIONS = { pg_trgm };
