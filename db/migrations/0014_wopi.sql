CREATE TABLE `wopi_locks` (
	`asset_id` text PRIMARY KEY NOT NULL,
	`lock_id` text NOT NULL,
	`user_id` text NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `wopi_user_info` (
	`user_id` text NOT NULL,
	`asset_id` text NOT NULL,
	`info` text NOT NULL,
	PRIMARY KEY(`user_id`, `asset_id`)
);
