-- Files of boards' image and video components (src/schemas/boardMedia.ts), kept per tenant.
CREATE TABLE "board_media" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"content_type" text NOT NULL,
	"size" integer NOT NULL,
	"bytes" "bytea" NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "board_media" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "board_media" ADD CONSTRAINT "board_media_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "board_media_tenant_idx" ON "board_media" USING btree ("tenant_id");--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "board_media" AS PERMISSIVE FOR ALL TO "terrasight_app" USING (tenant_id = current_tenant_id()) WITH CHECK (tenant_id = current_tenant_id());