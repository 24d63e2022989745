CREATE TABLE `transcripts` (
	`asset_id` text NOT NULL,
	`version` integer NOT NULL,
	`language` text DEFAULT '' NOT NULL,
	`source` text NOT NULL,
	`segments` text NOT NULL,
	`user_id` text,
	`ctime` integer NOT NULL,
	`mtime` integer NOT NULL,
	PRIMARY KEY(`asset_id`, `version`)
);
--> statement-breakpoint
-- A transcript's text is part of its asset's search document (functions/search/documents.ts): a change marks it dirty.
CREATE TRIGGER `search_transcript_insert` AFTER INSERT ON `transcripts` BEGIN
  INSERT INTO `search_dirty` (`el_id`, `el_type`) VALUES (new.asset_id, 'asset') ON CONFLICT (`el_id`) DO UPDATE SET `mark` = `mark` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `search_transcript_update` AFTER UPDATE ON `transcripts` BEGIN
  INSERT INTO `search_dirty` (`el_id`, `el_type`) VALUES (new.asset_id, 'asset') ON CONFLICT (`el_id`) DO UPDATE SET `mark` = `mark` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `search_transcript_delete` AFTER DELETE ON `transcripts` BEGIN
  INSERT INTO `search_dirty` (`el_id`, `el_type`) SELECT old.asset_id, 'asset' WHERE EXISTS (SELECT 1 FROM `assets` WHERE `asset_id` = old.asset_id) ON CONFLICT (`el_id`) DO UPDATE SET `mark` = `mark` + 1;
END;
--> statement-breakpoint
-- Transcripts go with their version and their asset.
CREATE TRIGGER `transcripts_version_delete` AFTER DELETE ON `versions` BEGIN
  DELETE FROM `transcripts` WHERE `asset_id` = old.asset_id AND `version` = old.version;
END;
--> statement-breakpoint
CREATE TRIGGER `transcripts_asset_delete` AFTER DELETE ON `assets` BEGIN
  DELETE FROM `transcripts` WHERE `asset_id` = old.asset_id;
END;
