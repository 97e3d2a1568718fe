-- Tells every instance which tenant's entities changed (payload: the tenant id), so that cached
-- entity lists are dropped. PostgreSQL delivers on commit and sends one notification per tenant
-- and transaction however many rows changed.
CREATE FUNCTION notify_entities_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('terrasight_entities_changed', (CASE WHEN TG_OP = 'DELETE' THEN OLD.tenant_id ELSE NEW.tenant_id END)::text);
  RETURN NULL;
END $$
--> statement-breakpoint
CREATE TRIGGER entities_changed AFTER INSERT OR UPDATE OR DELETE ON "entities" FOR EACH ROW EXECUTE FUNCTION notify_entities_changed()
--> statement-breakpoint
CREATE TRIGGER entities_changed AFTER INSERT OR UPDATE OR DELETE ON "entity_types" FOR EACH ROW EXECUTE FUNCTION notify_entities_changed()
--> statement-breakpoint
CREATE TRIGGER entities_changed AFTER INSERT OR UPDATE OR DELETE ON "groups" FOR EACH ROW EXECUTE FUNCTION notify_entities_changed()
--> statement-breakpoint
CREATE TRIGGER entities_changed AFTER INSERT OR UPDATE OR DELETE ON "entity_groups" FOR EACH ROW EXECUTE FUNCTION notify_entities_changed()
