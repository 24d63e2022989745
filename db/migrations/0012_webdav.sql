CREATE TABLE `app_passwords` (
	`password_id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`name` text NOT NULL,
	`secret_hash` text NOT NULL,
	`ctime` integer NOT NULL,
	`last_used` integer,
	`revoked_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`user_id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `app_passwords_hash_unique` ON `app_passwords` (`secret_hash`);--> statement-breakpoint
CREATE INDEX `app_passwords_user_idx` ON `app_passwords` (`user_id`);--> statement-breakpoint
CREATE TABLE `dav_locks` (
	`token` text PRIMARY KEY NOT NULL,
	`path` text NOT NULL,
	`depth` integer NOT NULL,
	`shared` integer NOT NULL,
	`owner_xml` text DEFAULT '' NOT NULL,
	`user_id` text NOT NULL,
	`timeout_seconds` integer NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `dav_locks_path_idx` ON `dav_locks` (`path`);--> statement-breakpoint
CREATE TABLE `dav_props` (
	`entity_id` text NOT NULL,
	`ns` text NOT NULL,
	`name` text NOT NULL,
	`xml` text NOT NULL,
	PRIMARY KEY(`entity_id`, `ns`, `name`)
);
