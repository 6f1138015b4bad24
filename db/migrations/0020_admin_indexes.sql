CREATE INDEX "follows_created_brin_idx" ON "follows" USING brin ("created_at");--> statement-breakpoint
CREATE INDEX "users_created_at_idx" ON "users" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "bookmarks_created_brin_idx" ON "bookmarks" USING brin ("created_at");--> statement-breakpoint
CREATE INDEX "likes_created_brin_idx" ON "likes" USING brin ("created_at");--> statement-breakpoint
CREATE INDEX "ratings_created_brin_idx" ON "ratings" USING brin ("created_at");--> statement-breakpoint
CREATE INDEX "comments_user_idx" ON "comments" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "comments_created_brin_idx" ON "comments" USING brin ("created_at");--> statement-breakpoint
CREATE INDEX "reports_target_idx" ON "reports" USING btree ("target_id","type");--> statement-breakpoint
CREATE INDEX "usage_period_kind_idx" ON "usage" USING btree ("period","kind");