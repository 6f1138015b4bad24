-- drizzle-kit never emits CREATE EXTENSION: trigram search, case-insensitive text and accent folding.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS citext;--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS unaccent;
