ALTER TABLE `groups` ADD `deleted_by` text;--> statement-breakpoint
-- Groups deleted before this column existed: their deleter is the author of the latest group.deleted event on the deleted root.
UPDATE `groups` SET `deleted_by` = (
  SELECT e.`user_id` FROM `events` e
  WHERE e.`kind` = 'group.deleted' AND e.`entity_id` = `groups`.`deleted_root`
  ORDER BY e.`ctime` DESC LIMIT 1
) WHERE `deleted_at` IS NOT NULL;
