CREATE TABLE `search_doc_facets` (
	`doc_id` integer NOT NULL,
	`facet` text NOT NULL,
	`value` text NOT NULL,
	PRIMARY KEY(`doc_id`, `facet`, `value`)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE TABLE `search_frequent_terms` (
	`term_id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`expr` text NOT NULL,
	`ready` integer DEFAULT 0 NOT NULL,
	`scored_at` integer DEFAULT (unixepoch()) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `search_frequent_terms_expr_unique` ON `search_frequent_terms` (`expr`);--> statement-breakpoint
CREATE TABLE `search_placement_sets` (
	`ps_id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`key` text NOT NULL,
	`rep_id` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `search_placement_sets_key_unique` ON `search_placement_sets` (`key`);--> statement-breakpoint
CREATE TABLE `search_term_counts` (
	`term_id` integer NOT NULL,
	`ps_id` integer NOT NULL,
	`facet` text NOT NULL,
	`value` text NOT NULL,
	`count` integer NOT NULL,
	PRIMARY KEY(`term_id`, `ps_id`, `facet`, `value`)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE TABLE `search_term_postings` (
	`term_id` integer NOT NULL,
	`doc_id` integer NOT NULL,
	`ps_id` integer NOT NULL,
	`impact` real NOT NULL,
	PRIMARY KEY(`term_id`, `doc_id`)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE INDEX `search_term_postings_impact_idx` ON `search_term_postings` (`term_id`,`impact`,`doc_id`,`ps_id`);--> statement-breakpoint
CREATE INDEX `search_term_postings_doc_idx` ON `search_term_postings` (`doc_id`);--> statement-breakpoint
ALTER TABLE `search_docs` ADD `ps_id` integer;--> statement-breakpoint
CREATE INDEX `search_docs_ps_idx` ON `search_docs` (`ps_id`);--> statement-breakpoint
-- A document's placement set is indexed (docs/decisions/052-frequent-words.md): placing, moving or unplacing an
-- asset, and a new owner of one, make it dirty like any change to what it is made of.
CREATE TRIGGER `search_placement_insert` AFTER INSERT ON `group_members` WHEN new.el_type = 'asset' BEGIN
  INSERT INTO `search_dirty` (`el_id`, `el_type`) VALUES (new.el_id, 'asset') ON CONFLICT (`el_id`) DO UPDATE SET `mark` = `mark` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `search_placement_update` AFTER UPDATE OF `group_id`, `el_id` ON `group_members` WHEN new.el_type = 'asset' BEGIN
  INSERT INTO `search_dirty` (`el_id`, `el_type`) VALUES (new.el_id, 'asset') ON CONFLICT (`el_id`) DO UPDATE SET `mark` = `mark` + 1;
  INSERT INTO `search_dirty` (`el_id`, `el_type`) SELECT old.el_id, 'asset' WHERE old.el_id <> new.el_id ON CONFLICT (`el_id`) DO UPDATE SET `mark` = `mark` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `search_placement_delete` AFTER DELETE ON `group_members` WHEN old.el_type = 'asset' BEGIN
  INSERT INTO `search_dirty` (`el_id`, `el_type`) SELECT old.el_id, 'asset' WHERE EXISTS (SELECT 1 FROM `assets` WHERE `asset_id` = old.el_id) ON CONFLICT (`el_id`) DO UPDATE SET `mark` = `mark` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `search_asset_owner` AFTER UPDATE OF `owner` ON `assets` BEGIN
  INSERT INTO `search_dirty` (`el_id`, `el_type`) VALUES (new.asset_id, 'asset') ON CONFLICT (`el_id`) DO UPDATE SET `mark` = `mark` + 1;
END;
--> statement-breakpoint
-- A document leaving the index (an asset or group deleted) takes its contribution to the frequent words' counts
-- with it, and its placement set gets another representative.
CREATE TRIGGER `search_docs_delete` AFTER DELETE ON `search_docs` BEGIN
  INSERT INTO `search_term_counts` (`term_id`, `ps_id`, `facet`, `value`, `count`)
    SELECT p.`term_id`, p.`ps_id`, f.`facet`, f.`value`, -count(*) FROM `search_term_postings` p JOIN `search_doc_facets` f ON f.`doc_id` = p.`doc_id`
    WHERE p.`doc_id` = old.doc_id GROUP BY 1, 2, 3, 4
    ON CONFLICT (`term_id`, `ps_id`, `facet`, `value`) DO UPDATE SET `count` = `count` + excluded.`count`;
  DELETE FROM `search_term_postings` WHERE `doc_id` = old.doc_id;
  DELETE FROM `search_doc_facets` WHERE `doc_id` = old.doc_id;
  UPDATE `search_placement_sets` SET `rep_id` = (SELECT `el_id` FROM `search_docs` WHERE `ps_id` = old.ps_id LIMIT 1)
    WHERE `ps_id` = old.ps_id AND `rep_id` = old.el_id;
END;
--> statement-breakpoint
-- Every document gets its placement set and facet values by being indexed again.
INSERT INTO `search_dirty` (`el_id`, `el_type`) SELECT `el_id`, `el_type` FROM `search_docs` WHERE true ON CONFLICT (`el_id`) DO UPDATE SET `mark` = `mark` + 1;
