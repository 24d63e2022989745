CREATE TABLE `users` (
	`user_id` text PRIMARY KEY NOT NULL,
	`user_name` text NOT NULL,
	`login` text NOT NULL,
	`passwd_hash` text,
	`enabled` integer DEFAULT true NOT NULL,
	`is_admin` integer DEFAULT false NOT NULL,
	`is_robot` integer DEFAULT false NOT NULL,
	`chroot_groups` text DEFAULT '[]' NOT NULL,
	`default_storage` text,
	`ui_settings` text DEFAULT '{}' NOT NULL,
	`bookmarks` text DEFAULT '[]' NOT NULL,
	`ctime` integer NOT NULL,
	`mtime` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_login_unique` ON `users` (lower("login"));--> statement-breakpoint
CREATE TABLE `sessions` (
	`session_id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`refresh_hash` text NOT NULL,
	`ctime` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`revoked_at` integer,
	`user_agent` text,
	`ip` text,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`user_id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `sessions_user_idx` ON `sessions` (`user_id`);--> statement-breakpoint
CREATE TABLE `login_attempts` (
	`key` text PRIMARY KEY NOT NULL,
	`failures` integer NOT NULL,
	`window_ends` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `events` (
	`event_id` text PRIMARY KEY NOT NULL,
	`ctime` integer NOT NULL,
	`user_id` text,
	`kind` text NOT NULL,
	`entity_type` text,
	`entity_id` text,
	`data` text
);
--> statement-breakpoint
CREATE INDEX `events_ctime_idx` ON `events` (`ctime`);--> statement-breakpoint
CREATE INDEX `events_entity_idx` ON `events` (`entity_id`);--> statement-breakpoint
CREATE TABLE `access_rules` (
	`rule_id` text PRIMARY KEY NOT NULL,
	`subj_id` text NOT NULL,
	`subj_type` text NOT NULL,
	`obj_id` text NOT NULL,
	`obj_type` text NOT NULL,
	`acl` text NOT NULL,
	`ctime` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `access_rules_subj_idx` ON `access_rules` (`subj_id`);--> statement-breakpoint
CREATE INDEX `access_rules_obj_idx` ON `access_rules` (`obj_id`);