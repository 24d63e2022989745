ALTER TABLE `share_links` ADD `kind` text DEFAULT 'share' NOT NULL;--> statement-breakpoint
ALTER TABLE `share_links` ADD `review_version` integer;--> statement-breakpoint
ALTER TABLE `share_links` ADD `reviewer_id` text;--> statement-breakpoint
ALTER TABLE `share_links` ADD `confirm_email` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `review_comments` ADD `guest_name` text;--> statement-breakpoint
ALTER TABLE `review_decisions` ADD `guest_name` text;