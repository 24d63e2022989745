ALTER TABLE `udwf_runs` ADD `error_class` text;--> statement-breakpoint
ALTER TABLE `udwf_runs` ADD `retries` integer DEFAULT 0 NOT NULL;