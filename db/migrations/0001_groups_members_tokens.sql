CREATE TABLE `groups` (
	`group_id` text PRIMARY KEY NOT NULL,
	`group_name` text NOT NULL,
	`name_key` text NOT NULL,
	`parent_id` text,
	`path` text NOT NULL,
	`depth` integer NOT NULL,
	`owner` text,
	`default_storage` text,
	`default_class` text,
	`tags` text DEFAULT '[]' NOT NULL,
	`ctime` integer NOT NULL,
	`mtime` integer NOT NULL,
	`deleted_at` integer,
	`deleted_root` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `groups_sibling_name_unique` ON `groups` (`parent_id`,`name_key`) WHERE deleted_at IS NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `groups_root_name_unique` ON `groups` (`name_key`) WHERE parent_id IS NULL AND deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX `groups_parent_idx` ON `groups` (`parent_id`,`deleted_at`,`name_key`,`group_id`);--> statement-breakpoint
CREATE INDEX `groups_path_idx` ON `groups` (`path`,`deleted_at`);--> statement-breakpoint
CREATE INDEX `groups_deleted_root_idx` ON `groups` (`deleted_root`);--> statement-breakpoint
CREATE TABLE `group_members` (
	`group_id` text NOT NULL,
	`el_id` text NOT NULL,
	`el_type` text NOT NULL,
	`ctime` integer NOT NULL,
	PRIMARY KEY(`group_id`, `el_type`, `el_id`)
);
--> statement-breakpoint
CREATE INDEX `group_members_page_idx` ON `group_members` (`group_id`,`el_type`,`ctime`,`el_id`);--> statement-breakpoint
CREATE INDEX `group_members_el_idx` ON `group_members` (`el_id`,`el_type`,`group_id`);--> statement-breakpoint
CREATE TABLE `api_tokens` (
	`token_id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`name` text NOT NULL,
	`token_hash` text NOT NULL,
	`ctime` integer NOT NULL,
	`expires_at` integer,
	`revoked_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`user_id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `api_tokens_hash_unique` ON `api_tokens` (`token_hash`);--> statement-breakpoint
CREATE INDEX `api_tokens_user_idx` ON `api_tokens` (`user_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `access_rules_subj_obj_unique` ON `access_rules` (`subj_id`,`obj_id`);