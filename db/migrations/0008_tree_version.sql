CREATE TABLE `tree_version` (
	`id` integer PRIMARY KEY NOT NULL,
	`v` integer NOT NULL
);
--> statement-breakpoint
-- tree_version (db/schema/tree-version.ts): one row, a new random number on every change to what an
-- answer about the tree shows. Random, not a counter: after the database is restored to an earlier point, a
-- counter would give again numbers that an isolate holds for another tree. `>> 11` keeps it within a JS
-- number's exact range.
INSERT INTO `tree_version` (`id`, `v`) VALUES (1, random() >> 11);
--> statement-breakpoint
CREATE TRIGGER `groups_tree_version_insert` AFTER INSERT ON `groups` BEGIN
  UPDATE `tree_version` SET `v` = random() >> 11 WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `groups_tree_version_delete` AFTER DELETE ON `groups` BEGIN
  UPDATE `tree_version` SET `v` = random() >> 11 WHERE `id` = 1;
END;
--> statement-breakpoint
-- Only the columns a tree answer reads or filters on: asset_count and mtime change with every upload.
CREATE TRIGGER `groups_tree_version_update` AFTER UPDATE OF `group_id`, `group_name`, `parent_id`, `path`, `depth`, `deleted_at` ON `groups` BEGIN
  UPDATE `tree_version` SET `v` = random() >> 11 WHERE `id` = 1;
END;
