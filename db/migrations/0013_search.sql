CREATE TABLE `search_dirty` (
	`el_id` text PRIMARY KEY NOT NULL,
	`el_type` text NOT NULL,
	`mark` integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
CREATE TABLE `search_docs` (
	`doc_id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`el_id` text NOT NULL,
	`el_type` text NOT NULL,
	`name` text NOT NULL,
	`sort_name` text NOT NULL,
	`mime` text,
	`class_id` text,
	`ctime` integer NOT NULL,
	`size` integer,
	`body` text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `search_docs_el_id_unique` ON `search_docs` (`el_id`);--> statement-breakpoint
CREATE INDEX `search_docs_ctime_idx` ON `search_docs` (`ctime`);--> statement-breakpoint
CREATE TABLE `search_texts` (
	`asset_id` text PRIMARY KEY NOT NULL,
	`variant_id` text NOT NULL,
	`text` text NOT NULL,
	`ctime` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `search_vectors` (
	`el_id` text PRIMARY KEY NOT NULL,
	`model` text NOT NULL,
	`vec` blob NOT NULL,
	`ctime` integer DEFAULT (unixepoch()) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `search_vocab` (
	`word_id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`word` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `search_vocab_word_unique` ON `search_vocab` (`word`);--> statement-breakpoint
-- The stemmed words of each search document (functions/search/text.ts stems them: D1 cannot load a custom
-- tokenizer). Contentless: the words are only matched, never shown; snippets come from search_docs.body.
CREATE VIRTUAL TABLE `search_fts` USING fts5(`name`, `tags`, `body`, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 0', prefix='2 3');
--> statement-breakpoint
-- The vocabulary by trigram, for the autocomplete's one-typo matches.
CREATE VIRTUAL TABLE `search_words` USING fts5(`word`, content='', contentless_delete=1, tokenize='trigram');
--> statement-breakpoint
CREATE TRIGGER `search_vocab_words` AFTER INSERT ON `search_vocab` BEGIN
  INSERT INTO `search_words` (`rowid`, `word`) VALUES (new.word_id, new.word);
END;
--> statement-breakpoint
-- What makes a document dirty, marked in the same transaction as the change (docs/decisions/045-search.md).
CREATE TRIGGER `search_asset_insert` AFTER INSERT ON `assets` BEGIN
  INSERT INTO `search_dirty` (`el_id`, `el_type`) VALUES (new.asset_id, 'asset') ON CONFLICT (`el_id`) DO UPDATE SET `mark` = `mark` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `search_asset_update` AFTER UPDATE OF `name`, `mimetype`, `class_id`, `ctime` ON `assets` BEGIN
  INSERT INTO `search_dirty` (`el_id`, `el_type`) VALUES (new.asset_id, 'asset') ON CONFLICT (`el_id`) DO UPDATE SET `mark` = `mark` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `search_asset_delete` AFTER DELETE ON `assets` BEGIN
  DELETE FROM `search_fts` WHERE `rowid` = (SELECT `doc_id` FROM `search_docs` WHERE `el_id` = old.asset_id);
  DELETE FROM `search_docs` WHERE `el_id` = old.asset_id;
  DELETE FROM `search_dirty` WHERE `el_id` = old.asset_id;
  DELETE FROM `search_texts` WHERE `asset_id` = old.asset_id;
  DELETE FROM `search_vectors` WHERE `el_id` = old.asset_id;
END;
--> statement-breakpoint
CREATE TRIGGER `search_variant_insert` AFTER INSERT ON `variants` BEGIN
  INSERT INTO `search_dirty` (`el_id`, `el_type`) VALUES (new.asset_id, 'asset') ON CONFLICT (`el_id`) DO UPDATE SET `mark` = `mark` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `search_variant_update` AFTER UPDATE OF `tech_props`, `content_size` ON `variants` BEGIN
  INSERT INTO `search_dirty` (`el_id`, `el_type`) VALUES (new.asset_id, 'asset') ON CONFLICT (`el_id`) DO UPDATE SET `mark` = `mark` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `search_variant_delete` AFTER DELETE ON `variants` BEGIN
  INSERT INTO `search_dirty` (`el_id`, `el_type`) SELECT old.asset_id, 'asset' WHERE EXISTS (SELECT 1 FROM `assets` WHERE `asset_id` = old.asset_id) ON CONFLICT (`el_id`) DO UPDATE SET `mark` = `mark` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `search_group_insert` AFTER INSERT ON `groups` BEGIN
  INSERT INTO `search_dirty` (`el_id`, `el_type`) VALUES (new.group_id, 'group') ON CONFLICT (`el_id`) DO UPDATE SET `mark` = `mark` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `search_group_update` AFTER UPDATE OF `group_name` ON `groups` BEGIN
  INSERT INTO `search_dirty` (`el_id`, `el_type`) VALUES (new.group_id, 'group') ON CONFLICT (`el_id`) DO UPDATE SET `mark` = `mark` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `search_group_delete` AFTER DELETE ON `groups` BEGIN
  DELETE FROM `search_fts` WHERE `rowid` = (SELECT `doc_id` FROM `search_docs` WHERE `el_id` = old.group_id);
  DELETE FROM `search_docs` WHERE `el_id` = old.group_id;
  DELETE FROM `search_dirty` WHERE `el_id` = old.group_id;
END;
--> statement-breakpoint
CREATE TRIGGER `search_tagged` AFTER INSERT ON `entity_tags` BEGIN
  INSERT INTO `search_dirty` (`el_id`, `el_type`) VALUES (new.entity_id, new.entity_type) ON CONFLICT (`el_id`) DO UPDATE SET `mark` = `mark` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `search_untagged` AFTER DELETE ON `entity_tags` BEGIN
  INSERT INTO `search_dirty` (`el_id`, `el_type`) VALUES (old.entity_id, old.entity_type) ON CONFLICT (`el_id`) DO UPDATE SET `mark` = `mark` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `search_tag_rename` AFTER UPDATE OF `tag_name` ON `tags` BEGIN
  INSERT INTO `search_dirty` (`el_id`, `el_type`) SELECT `entity_id`, `entity_type` FROM `entity_tags` WHERE `tag_id` = new.tag_id ON CONFLICT (`el_id`) DO UPDATE SET `mark` = `mark` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `search_filed` AFTER INSERT ON `taxon_members` BEGIN
  INSERT INTO `search_dirty` (`el_id`, `el_type`) VALUES (new.object_id, new.object_type) ON CONFLICT (`el_id`) DO UPDATE SET `mark` = `mark` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `search_unfiled` AFTER DELETE ON `taxon_members` BEGIN
  INSERT INTO `search_dirty` (`el_id`, `el_type`) VALUES (old.object_id, old.object_type) ON CONFLICT (`el_id`) DO UPDATE SET `mark` = `mark` + 1;
END;
--> statement-breakpoint
-- A renamed or moved taxon changes the path text of everything filed anywhere under it.
CREATE TRIGGER `search_taxon_update` AFTER UPDATE OF `name`, `path` ON `taxa` BEGIN
  INSERT INTO `search_dirty` (`el_id`, `el_type`) SELECT m.`object_id`, m.`object_type` FROM `taxa` t JOIN `taxon_members` m ON m.`taxon_id` = t.`taxon_id`
    WHERE t.`path` >= new.path AND t.`path` < substr(new.path, 1, length(new.path) - 1) || '0' ON CONFLICT (`el_id`) DO UPDATE SET `mark` = `mark` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `search_field_insert` AFTER INSERT ON `field_values` WHEN new.entity_type IN ('asset', 'group') BEGIN
  INSERT INTO `search_dirty` (`el_id`, `el_type`) VALUES (new.entity_id, new.entity_type) ON CONFLICT (`el_id`) DO UPDATE SET `mark` = `mark` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `search_field_update` AFTER UPDATE OF `field_data` ON `field_values` WHEN new.entity_type IN ('asset', 'group') BEGIN
  INSERT INTO `search_dirty` (`el_id`, `el_type`) VALUES (new.entity_id, new.entity_type) ON CONFLICT (`el_id`) DO UPDATE SET `mark` = `mark` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `search_field_delete` AFTER DELETE ON `field_values` WHEN old.entity_type IN ('asset', 'group') BEGIN
  INSERT INTO `search_dirty` (`el_id`, `el_type`) VALUES (old.entity_id, old.entity_type) ON CONFLICT (`el_id`) DO UPDATE SET `mark` = `mark` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `search_text_insert` AFTER INSERT ON `search_texts` BEGIN
  INSERT INTO `search_dirty` (`el_id`, `el_type`) VALUES (new.asset_id, 'asset') ON CONFLICT (`el_id`) DO UPDATE SET `mark` = `mark` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `search_text_update` AFTER UPDATE ON `search_texts` BEGIN
  INSERT INTO `search_dirty` (`el_id`, `el_type`) VALUES (new.asset_id, 'asset') ON CONFLICT (`el_id`) DO UPDATE SET `mark` = `mark` + 1;
END;
--> statement-breakpoint
-- What exists before this migration is indexed by the first runs of the indexer.
INSERT INTO `search_dirty` (`el_id`, `el_type`) SELECT `asset_id`, 'asset' FROM `assets`;
--> statement-breakpoint
INSERT INTO `search_dirty` (`el_id`, `el_type`) SELECT `group_id`, 'group' FROM `groups`;
