-- Data deletion looks rows up by the deleted user's id as the actor of notifications, and by their address in emails,
-- CCPA requests and support tickets: without these, each deletion read every row of those tables.
CREATE INDEX "notifications_actor_idx" ON "notifications" USING btree ("actor_id");--> statement-breakpoint
CREATE INDEX "email_outbox_to_idx" ON "email_outbox" USING btree ("to");--> statement-breakpoint
CREATE INDEX "ccpa_requests_email_idx" ON "ccpa_requests" USING btree ("email");--> statement-breakpoint
CREATE INDEX "support_tickets_email_idx" ON "support_tickets" USING btree ("email");