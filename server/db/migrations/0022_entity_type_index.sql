-- An entity type's entities in id order, found through their own index among a million devices
-- (KPI items and watchers of a type, the studio's list by type): a rare type's scan took seconds.
CREATE INDEX "entities_type_idx" ON "entities" USING btree ("entity_type_id","id");