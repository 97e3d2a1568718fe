-- The search by name (GET /entity-list?search=: the studio's and the dashboard's) among a million
-- entities: a trigram index over each entity's names in every language. Under row-level security
-- an ILIKE cannot reach an index (it is not leakproof), so the index is read by entity_ids_named,
-- which runs as the tables' owner and keeps to the caller's tenant itself (at most `most` ids: a
-- text most names contain is searched by reading the names instead); the query around it still
-- has its row-level rules and checks the exact condition (one language's name contains the text).
CREATE EXTENSION IF NOT EXISTS pg_trgm
--> statement-breakpoint
CREATE FUNCTION entity_name_text(name jsonb) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS
$$ SELECT CASE WHEN jsonb_typeof(name) = 'object' THEN (SELECT string_agg(value, E'\n') FROM jsonb_each_text(name)) END $$
--> statement-breakpoint
CREATE INDEX "entities_name_search_idx" ON "entities" USING gin (entity_name_text(name) gin_trgm_ops);
--> statement-breakpoint
CREATE FUNCTION entity_ids_named(pattern text, most integer) RETURNS SETOF integer LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS
$$ SELECT id FROM entities WHERE tenant_id = current_tenant_id() AND entity_name_text(name) ILIKE pattern LIMIT most $$
