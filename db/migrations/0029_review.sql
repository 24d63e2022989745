CREATE TABLE `review_comments` (
	`comment_id` text PRIMARY KEY NOT NULL,
	`asset_id` text NOT NULL,
	`version` integer NOT NULL,
	`parent_id` text,
	`user_id` text,
	`body` text NOT NULL,
	`frame` integer,
	`until_frame` integer,
	`fps_num` integer,
	`fps_den` integer,
	`page` integer,
	`region` text,
	`shapes` text,
	`internal` integer DEFAULT false NOT NULL,
	`resolved` integer DEFAULT false NOT NULL,
	`resolved_by` text,
	`ctime` integer NOT NULL,
	`mtime` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `review_comments_asset_idx` ON `review_comments` (`asset_id`,`version`);--> statement-breakpoint
CREATE INDEX `review_comments_parent_idx` ON `review_comments` (`parent_id`);--> statement-breakpoint
CREATE TABLE `review_decisions` (
	`decision_id` text PRIMARY KEY NOT NULL,
	`asset_id` text NOT NULL,
	`version` integer NOT NULL,
	`user_id` text NOT NULL,
	`status` text NOT NULL,
	`note` text DEFAULT '' NOT NULL,
	`ctime` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `review_decisions_version_idx` ON `review_decisions` (`asset_id`,`version`,`ctime`);--> statement-breakpoint
CREATE TABLE `review_requests` (
	`request_id` text PRIMARY KEY NOT NULL,
	`asset_id` text NOT NULL,
	`version` integer NOT NULL,
	`all_must_approve` integer DEFAULT false NOT NULL,
	`due` integer,
	`user_id` text,
	`ctime` integer NOT NULL,
	`mtime` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `review_requests_version_unique` ON `review_requests` (`asset_id`,`version`);--> statement-breakpoint
CREATE TABLE `review_reviewers` (
	`request_id` text NOT NULL,
	`user_id` text NOT NULL,
	`ctime` integer NOT NULL,
	PRIMARY KEY(`request_id`, `user_id`)
);
--> statement-breakpoint
CREATE INDEX `review_reviewers_user_idx` ON `review_reviewers` (`user_id`);