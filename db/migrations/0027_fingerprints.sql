CREATE TABLE `content_hashes` (
	`variant_id` text PRIMARY KEY NOT NULL,
	`asset_id` text NOT NULL,
	`version` integer NOT NULL,
	`sha256` text NOT NULL,
	`size` integer NOT NULL,
	`ctime` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `content_hashes_sha_idx` ON `content_hashes` (`sha256`);--> statement-breakpoint
CREATE INDEX `content_hashes_asset_idx` ON `content_hashes` (`asset_id`,`version`);--> statement-breakpoint
CREATE TABLE `perceptual_hashes` (
	`variant_id` text NOT NULL,
	`asset_id` text NOT NULL,
	`version` integer NOT NULL,
	`kind` text NOT NULL,
	`seq` integer NOT NULL,
	`hash` text NOT NULL,
	`b0` integer NOT NULL,
	`b1` integer NOT NULL,
	`b2` integer NOT NULL,
	`b3` integer NOT NULL,
	`b4` integer NOT NULL,
	`b5` integer NOT NULL,
	`b6` integer NOT NULL,
	`b7` integer NOT NULL,
	`b8` integer NOT NULL,
	PRIMARY KEY(`variant_id`, `kind`, `seq`)
);
--> statement-breakpoint
CREATE INDEX `perceptual_hashes_asset_idx` ON `perceptual_hashes` (`asset_id`,`version`);--> statement-breakpoint
CREATE INDEX `perceptual_hashes_b0_idx` ON `perceptual_hashes` (`b0`);--> statement-breakpoint
CREATE INDEX `perceptual_hashes_b1_idx` ON `perceptual_hashes` (`b1`);--> statement-breakpoint
CREATE INDEX `perceptual_hashes_b2_idx` ON `perceptual_hashes` (`b2`);--> statement-breakpoint
CREATE INDEX `perceptual_hashes_b3_idx` ON `perceptual_hashes` (`b3`);--> statement-breakpoint
CREATE INDEX `perceptual_hashes_b4_idx` ON `perceptual_hashes` (`b4`);--> statement-breakpoint
CREATE INDEX `perceptual_hashes_b5_idx` ON `perceptual_hashes` (`b5`);--> statement-breakpoint
CREATE INDEX `perceptual_hashes_b6_idx` ON `perceptual_hashes` (`b6`);--> statement-breakpoint
CREATE INDEX `perceptual_hashes_b7_idx` ON `perceptual_hashes` (`b7`);--> statement-breakpoint
CREATE INDEX `perceptual_hashes_b8_idx` ON `perceptual_hashes` (`b8`);--> statement-breakpoint
-- Every original gets its SHA-256 from the metadata task (decision 058): the default template, where an admin left it as seeded, now runs on every type.
UPDATE `task_templates` SET `setup` = json_set(`setup`, '$.on_upload', json('["video/","audio/","image/","application/","text/","font/","model/"]')) WHERE `template_id` = '00000000-0000-4000-8000-000000000001' AND json_extract(`setup`, '$.on_upload') = '["video/","audio/","image/","application/pdf"]';
