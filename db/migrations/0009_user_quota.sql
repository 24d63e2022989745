-- users.quota (bytes; NULL = DEFAULT_QUOTA_BYTES) and two covering indexes that sum a user's stored and
-- reserved bytes for the upload quota (functions/uploads/quota.ts).
ALTER TABLE `users` ADD `quota` integer;--> statement-breakpoint
CREATE INDEX `variants_user_size_idx` ON `variants` (`user_id`,`content_size`);--> statement-breakpoint
CREATE INDEX `uploads_user_state_idx` ON `uploads` (`user_id`,`state`,`size`);