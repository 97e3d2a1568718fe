CREATE TABLE "scheduler_runs" (
	"tenant_id" uuid NOT NULL,
	"scheduler_id" integer NOT NULL,
	"occurrence_at" timestamp with time zone NOT NULL,
	"result" text NOT NULL,
	"message" text NOT NULL,
	"finished_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "scheduler_runs_scheduler_id_occurrence_at_pk" PRIMARY KEY("scheduler_id","occurrence_at")
);
--> statement-breakpoint
ALTER TABLE "scheduler_runs" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "schedulers" ADD COLUMN "claimed_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "scheduler_runs" ADD CONSTRAINT "scheduler_runs_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scheduler_runs" ADD CONSTRAINT "scheduler_runs_scheduler_id_schedulers_id_fk" FOREIGN KEY ("scheduler_id") REFERENCES "public"."schedulers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "scheduler_runs_tenant_idx" ON "scheduler_runs" USING btree ("tenant_id");--> statement-breakpoint
CREATE INDEX "schedulers_next_run_idx" ON "schedulers" USING btree ("next_run_at");--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "scheduler_runs" AS PERMISSIVE FOR ALL TO "terrasight_app" USING (tenant_id = current_tenant_id()) WITH CHECK (tenant_id = current_tenant_id());