CREATE TABLE `task_templates` (
	`template_id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`operation_class` text NOT NULL,
	`setup` text DEFAULT '{}' NOT NULL,
	`owner` text,
	`disabled` integer DEFAULT false NOT NULL,
	`ctime` integer NOT NULL,
	`mtime` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `task_templates_class_idx` ON `task_templates` (`operation_class`);--> statement-breakpoint
CREATE TABLE `tasks` (
	`job_id` text PRIMARY KEY NOT NULL,
	`job_num` integer NOT NULL,
	`template_id` text NOT NULL,
	`template` text NOT NULL,
	`operation_class` text NOT NULL,
	`setup` text DEFAULT '{}' NOT NULL,
	`owner` text,
	`asset_id` text NOT NULL,
	`version` integer NOT NULL,
	`src_entity` text NOT NULL,
	`dst_entity` text,
	`affected` text DEFAULT '[]' NOT NULL,
	`worker_info` text,
	`status` text NOT NULL,
	`priority` integer DEFAULT 0 NOT NULL,
	`progress` integer DEFAULT 0 NOT NULL,
	`progress_info` text DEFAULT '' NOT NULL,
	`run` integer DEFAULT 0 NOT NULL,
	`token_hash` text,
	`heartbeat_at` integer,
	`result` text,
	`error` text,
	`dedupe_key` text,
	`schedule_time` integer NOT NULL,
	`start_time` integer,
	`stop_time` integer,
	`mtime` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `tasks_job_num_unique` ON `tasks` (`job_num`);--> statement-breakpoint
CREATE UNIQUE INDEX `tasks_dedupe_unique` ON `tasks` (`dedupe_key`);--> statement-breakpoint
CREATE INDEX `tasks_status_idx` ON `tasks` (`status`,`priority`);--> statement-breakpoint
CREATE INDEX `tasks_asset_idx` ON `tasks` (`asset_id`);--> statement-breakpoint
CREATE INDEX `tasks_template_idx` ON `tasks` (`template_id`);--> statement-breakpoint
CREATE INDEX `tasks_owner_idx` ON `tasks` (`owner`);--> statement-breakpoint
CREATE TABLE `task_logs` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`job_id` text NOT NULL,
	`run` integer DEFAULT 0 NOT NULL,
	`ts` integer NOT NULL,
	`level` text DEFAULT 'info' NOT NULL,
	`line` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `task_logs_job_idx` ON `task_logs` (`job_id`,`seq`);