CREATE TABLE `udwf_shares` (
	`workflow_id` text NOT NULL,
	`subj_type` text NOT NULL,
	`subj_id` text NOT NULL,
	`role` text NOT NULL,
	`ctime` integer NOT NULL,
	PRIMARY KEY(`workflow_id`, `subj_type`, `subj_id`)
);
--> statement-breakpoint
CREATE INDEX `udwf_shares_subj_idx` ON `udwf_shares` (`subj_id`);--> statement-breakpoint
ALTER TABLE `udwf_cursor` ADD `lease_until` integer DEFAULT 0 NOT NULL;