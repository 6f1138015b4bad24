-- When each failed sign-in happened, so only failures within the lock period count (repositories/lockout.ts). Series
-- under way when this runs have no times and so start afresh; a lock in force stays (locked_at).
ALTER TABLE "users" ADD COLUMN "failed_login_times" timestamp with time zone[] DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE "admin_users" ADD COLUMN "failed_login_times" timestamp with time zone[] DEFAULT '{}' NOT NULL;