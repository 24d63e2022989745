CREATE TABLE `entity_tags` (
	`tag_id` text NOT NULL,
	`entity_id` text NOT NULL,
	`entity_type` text NOT NULL,
	`ctime` integer NOT NULL,
	PRIMARY KEY(`entity_id`, `tag_id`)
);
--> statement-breakpoint
CREATE INDEX `entity_tags_tag_idx` ON `entity_tags` (`tag_id`,`entity_id`);--> statement-breakpoint
CREATE TABLE `tags` (
	`tag_id` text PRIMARY KEY NOT NULL,
	`tag_name` text NOT NULL,
	`name_key` text NOT NULL,
	`creator` text,
	`ctime` integer NOT NULL,
	`mtime` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `tags_name_key_unique` ON `tags` (`name_key`);--> statement-breakpoint
CREATE TABLE `taxa` (
	`taxon_id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`name_key` text NOT NULL,
	`parent_id` text,
	`path` text NOT NULL,
	`depth` integer NOT NULL,
	`ctime` integer NOT NULL,
	`mtime` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `taxa_sibling_name_unique` ON `taxa` (`parent_id`,`name_key`) WHERE parent_id IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `taxa_root_name_unique` ON `taxa` (`name_key`) WHERE parent_id IS NULL;--> statement-breakpoint
CREATE INDEX `taxa_path_idx` ON `taxa` (`path`,`taxon_id`);--> statement-breakpoint
CREATE TABLE `taxon_members` (
	`taxon_id` text NOT NULL,
	`object_id` text NOT NULL,
	`object_type` text NOT NULL,
	`ctime` integer NOT NULL,
	PRIMARY KEY(`taxon_id`, `object_id`)
);
--> statement-breakpoint
CREATE INDEX `taxon_members_object_idx` ON `taxon_members` (`object_id`,`taxon_id`);--> statement-breakpoint
ALTER TABLE `groups` DROP COLUMN `tags`;--> statement-breakpoint
ALTER TABLE `assets` DROP COLUMN `tags`;