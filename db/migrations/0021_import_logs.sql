CREATE TABLE "import_logs" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"source" text NOT NULL,
	"mode" text NOT NULL,
	"url" text,
	"status" text NOT NULL,
	"error" text,
	"recipe_id" text,
	"method" text,
	"duration_ms" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "import_logs" ADD CONSTRAINT "import_logs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "import_logs" ADD CONSTRAINT "import_logs_recipe_id_recipes_id_fk" FOREIGN KEY ("recipe_id") REFERENCES "public"."recipes"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "import_logs_user_idx" ON "import_logs" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "import_logs_created_brin_idx" ON "import_logs" USING brin ("created_at");