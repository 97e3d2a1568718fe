-- The map's areas (GET /map-features?shape=areas: regions, zones, lines, circles) are found through
-- their own index: among a million point devices the scan for the few others took 1.1 s.
CREATE INDEX "entities_areas_idx" ON "entities" USING btree ("id") WHERE jsonb_typeof(geom) = 'object' AND NOT (jsonb_typeof(geom) = 'object' AND geom->>'type' = 'Point'
  AND jsonb_typeof(geom->'coordinates'->0) = 'number' AND jsonb_typeof(geom->'coordinates'->1) = 'number'
  AND coalesce(geom->>'radius', '0') = '0');