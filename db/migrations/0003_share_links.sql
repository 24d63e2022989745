CREATE TABLE `share_links` (
	`link_id` text PRIMARY KEY NOT NULL,
	`asset_id` text NOT NULL,
	`creator` text NOT NULL,
	`starts_at` integer,
	`ends_at` integer,
	`password_hash` text,
	`acl` text NOT NULL,
	`emails` text DEFAULT '[]' NOT NULL,
	`download_limit` integer,
	`view_count` integer DEFAULT 0 NOT NULL,
	`download_count` integer DEFAULT 0 NOT NULL,
	`revoked_at` integer,
	`ctime` integer NOT NULL,
	`mtime` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `share_links_asset_idx` ON `share_links` (`asset_id`,`ctime`);