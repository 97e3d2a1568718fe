-- KPI names are multilingual ({ en, sk, … }) like entity and board names; an existing name becomes its English text.
ALTER TABLE "kpis" ALTER COLUMN "name" SET DATA TYPE jsonb USING jsonb_build_object('en', "name");--> statement-breakpoint
ALTER TABLE "kpis" ALTER COLUMN "name" SET DEFAULT '{}'::jsonb;
