CREATE TABLE "families" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"invite_code" text NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "families_invite_code_check" CHECK ("families"."invite_code" ~ '^[0-9a-f]{8}$')
);
--> statement-breakpoint
CREATE TABLE "family_members" (
	"family_id" text NOT NULL,
	"user_id" text NOT NULL,
	"role" text DEFAULT 'member' NOT NULL,
	"joined_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "family_members_family_id_user_id_pk" PRIMARY KEY("family_id","user_id"),
	CONSTRAINT "family_members_role_check" CHECK ("family_members"."role" in ('owner', 'admin', 'member'))
);
--> statement-breakpoint
CREATE TABLE "grocery_items" (
	"id" text PRIMARY KEY NOT NULL,
	"list_id" text NOT NULL,
	"name" text NOT NULL,
	"quantity" double precision,
	"unit" text,
	"category" text DEFAULT 'other' NOT NULL,
	"checked" boolean DEFAULT false NOT NULL,
	"note" text,
	"position" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "grocery_lists" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"name" text NOT NULL,
	"meal_plan_id" text,
	"family_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "meal_plans" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"start_date" date NOT NULL,
	"end_date" date NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "meal_plans_dates_check" CHECK ("meal_plans"."end_date" >= "meal_plans"."start_date" and "meal_plans"."end_date" - "meal_plans"."start_date" <= 366)
);
--> statement-breakpoint
CREATE TABLE "planned_meals" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"meal_plan_id" text,
	"date" date NOT NULL,
	"meal_type" text NOT NULL,
	"recipe_id" text,
	"custom_title" text,
	"servings" integer,
	"notes" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "planned_meals_meal_type_check" CHECK ("planned_meals"."meal_type" in ('breakfast', 'lunch', 'dinner', 'snack', 'dessert')),
	CONSTRAINT "planned_meals_what_check" CHECK ("planned_meals"."recipe_id" is not null or "planned_meals"."custom_title" is not null),
	CONSTRAINT "planned_meals_servings_check" CHECK ("planned_meals"."servings" is null or "planned_meals"."servings" between 1 and 100)
);
--> statement-breakpoint
CREATE TABLE "shared_meal_plans" (
	"id" text PRIMARY KEY NOT NULL,
	"meal_plan_id" text NOT NULL,
	"shared_by" text NOT NULL,
	"family_id" text,
	"user_id" text,
	"permission" text DEFAULT 'view' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "shared_meal_plans_target_check" CHECK (("shared_meal_plans"."family_id" is null) <> ("shared_meal_plans"."user_id" is null)),
	CONSTRAINT "shared_meal_plans_permission_check" CHECK ("shared_meal_plans"."permission" in ('view', 'edit'))
);
--> statement-breakpoint
ALTER TABLE "families" ADD CONSTRAINT "families_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "family_members" ADD CONSTRAINT "family_members_family_id_families_id_fk" FOREIGN KEY ("family_id") REFERENCES "public"."families"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "family_members" ADD CONSTRAINT "family_members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "grocery_items" ADD CONSTRAINT "grocery_items_list_id_grocery_lists_id_fk" FOREIGN KEY ("list_id") REFERENCES "public"."grocery_lists"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "grocery_lists" ADD CONSTRAINT "grocery_lists_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "grocery_lists" ADD CONSTRAINT "grocery_lists_meal_plan_id_meal_plans_id_fk" FOREIGN KEY ("meal_plan_id") REFERENCES "public"."meal_plans"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "grocery_lists" ADD CONSTRAINT "grocery_lists_family_id_families_id_fk" FOREIGN KEY ("family_id") REFERENCES "public"."families"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meal_plans" ADD CONSTRAINT "meal_plans_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "planned_meals" ADD CONSTRAINT "planned_meals_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "planned_meals" ADD CONSTRAINT "planned_meals_meal_plan_id_meal_plans_id_fk" FOREIGN KEY ("meal_plan_id") REFERENCES "public"."meal_plans"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "planned_meals" ADD CONSTRAINT "planned_meals_recipe_id_recipes_id_fk" FOREIGN KEY ("recipe_id") REFERENCES "public"."recipes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shared_meal_plans" ADD CONSTRAINT "shared_meal_plans_meal_plan_id_meal_plans_id_fk" FOREIGN KEY ("meal_plan_id") REFERENCES "public"."meal_plans"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shared_meal_plans" ADD CONSTRAINT "shared_meal_plans_shared_by_users_id_fk" FOREIGN KEY ("shared_by") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shared_meal_plans" ADD CONSTRAINT "shared_meal_plans_family_id_families_id_fk" FOREIGN KEY ("family_id") REFERENCES "public"."families"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shared_meal_plans" ADD CONSTRAINT "shared_meal_plans_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "families_invite_code_idx" ON "families" USING btree ("invite_code");--> statement-breakpoint
CREATE INDEX "family_members_user_idx" ON "family_members" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "grocery_items_list_idx" ON "grocery_items" USING btree ("list_id","position");--> statement-breakpoint
CREATE INDEX "grocery_lists_user_idx" ON "grocery_lists" USING btree ("user_id","updated_at");--> statement-breakpoint
CREATE INDEX "grocery_lists_family_idx" ON "grocery_lists" USING btree ("family_id");--> statement-breakpoint
CREATE INDEX "meal_plans_user_start_idx" ON "meal_plans" USING btree ("user_id","start_date");--> statement-breakpoint
CREATE INDEX "planned_meals_user_date_idx" ON "planned_meals" USING btree ("user_id","date");--> statement-breakpoint
CREATE INDEX "planned_meals_plan_date_idx" ON "planned_meals" USING btree ("meal_plan_id","date");--> statement-breakpoint
CREATE INDEX "planned_meals_recipe_idx" ON "planned_meals" USING btree ("recipe_id");--> statement-breakpoint
CREATE UNIQUE INDEX "shared_meal_plans_family_idx" ON "shared_meal_plans" USING btree ("meal_plan_id","family_id") WHERE "shared_meal_plans"."family_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "shared_meal_plans_user_idx" ON "shared_meal_plans" USING btree ("meal_plan_id","user_id") WHERE "shared_meal_plans"."user_id" is not null;--> statement-breakpoint
CREATE INDEX "shared_meal_plans_recipient_idx" ON "shared_meal_plans" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "shared_meal_plans_family_recipient_idx" ON "shared_meal_plans" USING btree ("family_id");