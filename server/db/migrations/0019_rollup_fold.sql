-- The roll-ups hold the raw points up to a point in time (server/engines/rollups/rollupFolder.ts):
-- live points are folded when their quarter hour has closed, not one statement per batch. Until
-- now every batch folded its points at once, so everything stored so far is in the roll-ups: the
-- first quarter hour left to the folder is the one after the current, or on a new database (no
-- point stored yet) the current one.
CREATE TABLE "telemetry_fold_state" (
	"id" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"folded_until" timestamp with time zone NOT NULL,
	"entity_done" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "telemetry_fold_state_one_row" CHECK (id)
);
--> statement-breakpoint
INSERT INTO "telemetry_fold_state" ("folded_until")
SELECT date_bin('15 minutes', now(), timestamptz '2000-01-01 00:00:00+00')
  + CASE WHEN EXISTS (SELECT 1 FROM "telemetry") THEN interval '15 minutes' ELSE interval '0 minutes' END;
--> statement-breakpoint
-- Two writers needing a new month at once (several instances, or a backfill beside live points)
-- both found it missing and one failed its batch: the second now finds it made.
CREATE OR REPLACE FUNCTION ensure_telemetry_partition(at timestamptz) RETURNS void LANGUAGE plpgsql SECURITY DEFINER AS $$
DECLARE
  month_start timestamptz := date_trunc('month', at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC';
  part text := 'telemetry_' || to_char(month_start AT TIME ZONE 'UTC', 'YYYY_MM');
BEGIN
  IF to_regclass(part) IS NULL THEN
    EXECUTE format('CREATE TABLE %I PARTITION OF telemetry FOR VALUES FROM (%L) TO (%L)',
      part, month_start, month_start + interval '1 month');
  END IF;
EXCEPTION WHEN duplicate_table OR unique_violation THEN NULL;
END $$;
