CREATE TABLE `udwf_cursor` (
	`id` integer PRIMARY KEY NOT NULL,
	`last_rowid` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `udwf_runs` (
	`run_id` text PRIMARY KEY NOT NULL,
	`workflow_id` text NOT NULL,
	`trigger_key` text NOT NULL,
	`status` text NOT NULL,
	`depth` integer DEFAULT 1 NOT NULL,
	`input` text NOT NULL,
	`error` text,
	`ctime` integer NOT NULL,
	`started_at` integer,
	`finished_at` integer,
	`first_step_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `udwf_runs_trigger_idx` ON `udwf_runs` (`workflow_id`,`trigger_key`);--> statement-breakpoint
CREATE INDEX `udwf_runs_wf_idx` ON `udwf_runs` (`workflow_id`,`ctime`);--> statement-breakpoint
CREATE TABLE `udwf_steps` (
	`run_id` text NOT NULL,
	`step` integer NOT NULL,
	`action` text NOT NULL,
	`status` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`lease_until` integer,
	`output` text,
	`log` text DEFAULT '[]' NOT NULL,
	`started_at` integer,
	`finished_at` integer,
	PRIMARY KEY(`run_id`, `step`)
);
--> statement-breakpoint
CREATE TABLE `udwf_workflows` (
	`workflow_id` text PRIMARY KEY NOT NULL,
	`owner` text NOT NULL,
	`name` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`enabled` integer DEFAULT false NOT NULL,
	`trigger` text,
	`conditions` text DEFAULT '[]' NOT NULL,
	`steps` text DEFAULT '[]' NOT NULL,
	`enabled_at` integer,
	`hook_secret` text,
	`next_run_at` integer,
	`ctime` integer NOT NULL,
	`mtime` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `udwf_workflows_owner_idx` ON `udwf_workflows` (`owner`);--> statement-breakpoint
CREATE INDEX `udwf_workflows_enabled_idx` ON `udwf_workflows` (`enabled`);--> statement-breakpoint
-- hand-written below
-- The dispatcher starts after the events that exist now: history never starts a workflow.
INSERT INTO `udwf_cursor` (`id`, `last_rowid`) VALUES (1, COALESCE((SELECT MAX(rowid) FROM `events`), 0));
