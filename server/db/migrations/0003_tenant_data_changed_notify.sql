-- Tells every instance whose data changed (payload: the tenant id), so that cached reads of that
-- tenant are dropped (server/services/tenantReadCache.ts). PostgreSQL delivers on commit and sends
-- one notification per tenant and transaction however many rows changed.
CREATE FUNCTION notify_tenant_data_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed record := CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
BEGIN
  PERFORM pg_notify('terrasight_tenant_data_changed',
    (CASE WHEN TG_TABLE_NAME = 'tenants' THEN to_jsonb(changed) ->> 'id' ELSE to_jsonb(changed) ->> 'tenant_id' END));
  RETURN NULL;
END $$
--> statement-breakpoint
CREATE TRIGGER tenant_data_changed AFTER INSERT OR UPDATE OR DELETE ON "tenants" FOR EACH ROW EXECUTE FUNCTION notify_tenant_data_changed()
--> statement-breakpoint
CREATE TRIGGER tenant_data_changed AFTER INSERT OR UPDATE OR DELETE ON "users" FOR EACH ROW EXECUTE FUNCTION notify_tenant_data_changed()
--> statement-breakpoint
CREATE TRIGGER tenant_data_changed AFTER INSERT OR UPDATE OR DELETE ON "entities" FOR EACH ROW EXECUTE FUNCTION notify_tenant_data_changed()
--> statement-breakpoint
CREATE TRIGGER tenant_data_changed AFTER INSERT OR UPDATE OR DELETE ON "entity_types" FOR EACH ROW EXECUTE FUNCTION notify_tenant_data_changed()
--> statement-breakpoint
CREATE TRIGGER tenant_data_changed AFTER INSERT OR UPDATE OR DELETE ON "groups" FOR EACH ROW EXECUTE FUNCTION notify_tenant_data_changed()
--> statement-breakpoint
CREATE TRIGGER tenant_data_changed AFTER INSERT OR UPDATE OR DELETE ON "entity_groups" FOR EACH ROW EXECUTE FUNCTION notify_tenant_data_changed()
--> statement-breakpoint
CREATE TRIGGER tenant_data_changed AFTER INSERT OR UPDATE OR DELETE ON "watchers" FOR EACH ROW EXECUTE FUNCTION notify_tenant_data_changed()
