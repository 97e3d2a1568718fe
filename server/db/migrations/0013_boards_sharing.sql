-- Boards exist for their owner and the users they share them with (docs/decisions.md "Boards and
-- sharing"). Boards made before had no owner: each goes to its tenant's first user. Shares made by
-- a board's owner become granted; of several shares of one board with one user the latest is kept.
UPDATE "boards" SET "kind" = 'public_api' WHERE "kind" = 'public-api';--> statement-breakpoint
UPDATE "boards" b SET "owner_id" = (SELECT u."id" FROM "users" u WHERE u."tenant_id" = b."tenant_id" ORDER BY u."created_at", u."id" LIMIT 1) WHERE b."owner_id" IS NULL;--> statement-breakpoint
DELETE FROM "shares" s USING "shares" later WHERE later."resource" = s."resource" AND later."requester" = s."requester" AND later."id" > s."id";--> statement-breakpoint
UPDATE "shares" s SET "granted" = true FROM "boards" b WHERE b."resource_uuid" = s."resource" AND b."owner_id" = s."owner";--> statement-breakpoint
CREATE INDEX "boards_owner_idx" ON "boards" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "boards_resource_uuid_idx" ON "boards" USING btree ("resource_uuid");--> statement-breakpoint
CREATE UNIQUE INDEX "shares_resource_requester_unique" ON "shares" USING btree ("resource","requester");--> statement-breakpoint
CREATE INDEX "shares_requester_idx" ON "shares" USING btree ("requester");--> statement-breakpoint
ALTER TABLE "boards" ADD CONSTRAINT "boards_kind_check" CHECK (kind IN ('performance', 'public_api'));
