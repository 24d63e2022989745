CREATE TABLE `storages` (
	`storage_id` text PRIMARY KEY NOT NULL,
	`storage_name` text NOT NULL,
	`kind` text NOT NULL,
	`setup` text NOT NULL,
	`credentials_enc` text,
	`ctime` integer NOT NULL,
	`mtime` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `asset_classes` (
	`class_id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`def_fields` text DEFAULT '[]' NOT NULL,
	`ctime` integer NOT NULL,
	`mtime` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `asset_classes_name_unique` ON `asset_classes` (`name`);--> statement-breakpoint
CREATE TABLE `assets` (
	`asset_id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`owner` text NOT NULL,
	`creator` text NOT NULL,
	`mimetype` text NOT NULL,
	`class_id` text,
	`default_storage` text,
	`tags` text DEFAULT '[]' NOT NULL,
	`ctime` integer NOT NULL,
	`mtime` integer NOT NULL,
	`atime` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `assets_owner_idx` ON `assets` (`owner`);--> statement-breakpoint
CREATE INDEX `assets_class_idx` ON `assets` (`class_id`);--> statement-breakpoint
CREATE TABLE `versions` (
	`asset_id` text NOT NULL,
	`version` integer NOT NULL,
	`desc` text DEFAULT '' NOT NULL,
	`user_id` text,
	`ctime` integer NOT NULL,
	PRIMARY KEY(`asset_id`, `version`)
);
--> statement-breakpoint
CREATE TABLE `variants` (
	`variant_id` text PRIMARY KEY NOT NULL,
	`asset_id` text NOT NULL,
	`version` integer NOT NULL,
	`storage_id` text NOT NULL,
	`object_key` text NOT NULL,
	`name` text NOT NULL,
	`mime_type` text NOT NULL,
	`format` text DEFAULT '' NOT NULL,
	`variant_type` text NOT NULL,
	`content_size` integer NOT NULL,
	`file_name` text NOT NULL,
	`etag` text NOT NULL,
	`sha256` text,
	`preview_storage_id` text,
	`preview_key` text,
	`metadata_storage_id` text,
	`tech_props` text DEFAULT '{}' NOT NULL,
	`user_id` text,
	`ctime` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `variants_asset_idx` ON `variants` (`asset_id`,`version`);--> statement-breakpoint
CREATE INDEX `variants_storage_idx` ON `variants` (`storage_id`);--> statement-breakpoint
CREATE TABLE `upload_parts` (
	`upload_id` text NOT NULL,
	`part_number` integer NOT NULL,
	`size` integer NOT NULL,
	`etag` text NOT NULL,
	`ctime` integer NOT NULL,
	PRIMARY KEY(`upload_id`, `part_number`)
);
--> statement-breakpoint
CREATE TABLE `uploads` (
	`upload_id` text PRIMARY KEY NOT NULL,
	`asset_id` text NOT NULL,
	`version` integer NOT NULL,
	`new_version` integer NOT NULL,
	`new_asset` integer NOT NULL,
	`variant_id` text NOT NULL,
	`variant_type` text NOT NULL,
	`storage_id` text NOT NULL,
	`object_key` text NOT NULL,
	`multipart_id` text NOT NULL,
	`mode` text NOT NULL,
	`size` integer NOT NULL,
	`part_size` integer NOT NULL,
	`part_count` integer NOT NULL,
	`file_name` text NOT NULL,
	`mime` text NOT NULL,
	`sha256` text,
	`state` text NOT NULL,
	`worker_bytes` integer DEFAULT 0 NOT NULL,
	`user_id` text NOT NULL,
	`ctime` integer NOT NULL,
	`mtime` integer NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `uploads_slot_unique` ON `uploads` (`asset_id`,`version`,`variant_type`) WHERE state IN ('active', 'completing') AND variant_type <> 'untyped';--> statement-breakpoint
CREATE UNIQUE INDEX `uploads_new_version_unique` ON `uploads` (`asset_id`,`version`) WHERE state IN ('active', 'completing') AND new_version = 1;--> statement-breakpoint
CREATE INDEX `uploads_asset_idx` ON `uploads` (`asset_id`,`state`);--> statement-breakpoint
CREATE INDEX `uploads_expiry_idx` ON `uploads` (`state`,`expires_at`);