CREATE TABLE `field_templates` (
	`field_def_id` text PRIMARY KEY NOT NULL,
	`field_def_name` text NOT NULL,
	`field_type` text NOT NULL,
	`field_setup` text NOT NULL,
	`field_priority` integer DEFAULT 0 NOT NULL,
	`field_def_extsys` text,
	`field_def_extsys_key` text,
	`ctime` integer NOT NULL,
	`mtime` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `field_values` (
	`field_id` text PRIMARY KEY NOT NULL,
	`entity_id` text NOT NULL,
	`entity_type` text NOT NULL,
	`asset_version` integer,
	`pts_start` real,
	`pts_end` real,
	`field_data` text NOT NULL,
	`def_id` text NOT NULL,
	`value_text` text,
	`value_num` real,
	`user_id` text,
	`ctime` integer NOT NULL,
	`mtime` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `field_values_entity_idx` ON `field_values` (`entity_id`,`asset_version`,`pts_start`);--> statement-breakpoint
CREATE INDEX `field_values_def_text_idx` ON `field_values` (`def_id`,`value_text`,`entity_id`);--> statement-breakpoint
CREATE INDEX `field_values_def_num_idx` ON `field_values` (`def_id`,`value_num`,`entity_id`);--> statement-breakpoint
CREATE TABLE `list_records` (
	`rec_id` text PRIMARY KEY NOT NULL,
	`list_id` text NOT NULL,
	`rec_data` text NOT NULL,
	`ctime` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `list_records_data_unique` ON `list_records` (`list_id`,`rec_data`);--> statement-breakpoint
CREATE INDEX `list_records_list_idx` ON `list_records` (`list_id`,`ctime`);--> statement-breakpoint
CREATE TABLE `lists` (
	`list_id` text PRIMARY KEY NOT NULL,
	`list_name` text NOT NULL,
	`ctime` integer NOT NULL,
	`mtime` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `lists_name_unique` ON `lists` (`list_name`);