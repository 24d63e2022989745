DROP INDEX `groups_path_idx`;--> statement-breakpoint
ALTER TABLE `groups` ADD `asset_count` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `groups_path_idx` ON `groups` (`path`,`deleted_at`,`group_id`,`group_name`,`parent_id`,`depth`);--> statement-breakpoint
-- groups.asset_count (db/schema/groups.ts): filled now, kept by triggers on group_members.
UPDATE `groups` SET `asset_count` = (SELECT count(*) FROM `group_members` m WHERE m.group_id = groups.group_id AND m.el_type = 'asset');
--> statement-breakpoint
CREATE TRIGGER `group_members_count_insert` AFTER INSERT ON `group_members` WHEN new.el_type = 'asset' BEGIN
  UPDATE `groups` SET `asset_count` = `asset_count` + 1 WHERE `group_id` = new.group_id;
END;
--> statement-breakpoint
CREATE TRIGGER `group_members_count_delete` AFTER DELETE ON `group_members` WHEN old.el_type = 'asset' BEGIN
  UPDATE `groups` SET `asset_count` = `asset_count` - 1 WHERE `group_id` = old.group_id;
END;
--> statement-breakpoint
CREATE TRIGGER `group_members_count_update` AFTER UPDATE OF `group_id`, `el_type` ON `group_members` BEGIN
  UPDATE `groups` SET `asset_count` = `asset_count` - 1 WHERE `group_id` = old.group_id AND old.el_type = 'asset';
  UPDATE `groups` SET `asset_count` = `asset_count` + 1 WHERE `group_id` = new.group_id AND new.el_type = 'asset';
END;
