CREATE TABLE `review_inbox` (
	`item_id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`kind` text NOT NULL,
	`asset_id` text NOT NULL,
	`version` integer NOT NULL,
	`comment_id` text,
	`request_id` text,
	`actor_id` text,
	`ctime` integer NOT NULL,
	`read_at` integer
);
--> statement-breakpoint
CREATE INDEX `review_inbox_user_idx` ON `review_inbox` (`user_id`,`ctime`);--> statement-breakpoint
CREATE INDEX `review_inbox_comment_idx` ON `review_inbox` (`comment_id`);