ALTER TABLE `group_members` ADD `sort_name` text;--> statement-breakpoint
ALTER TABLE `group_members` ADD `sort_ctime` integer;--> statement-breakpoint
ALTER TABLE `group_members` ADD `sort_size` integer;--> statement-breakpoint
CREATE INDEX `group_members_name_idx` ON `group_members` (`group_id`,`el_type`,`sort_name`,`el_id`);--> statement-breakpoint
CREATE INDEX `group_members_ctime_idx` ON `group_members` (`group_id`,`el_type`,`sort_ctime`,`el_id`);--> statement-breakpoint
CREATE INDEX `group_members_size_idx` ON `group_members` (`group_id`,`el_type`,`sort_size`,`el_id`);--> statement-breakpoint
-- Sort copies (db/schema/group-members.ts): the name case-folded for ASCII and Cyrillic with ё as е, in two
-- statements (one expression of 34 nested replace() overflows the parser stack of some SQLite builds); the
-- asset's ctime; the size of the latest main variant (the one members/{id} shows). Filled now, kept by triggers.
UPDATE `group_members` SET `sort_name` = (SELECT replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(lower(a.name), 'А', 'а'), 'Б', 'б'), 'В', 'в'), 'Г', 'г'), 'Д', 'д'), 'Е', 'е'), 'Ё', 'е'), 'Ж', 'ж'), 'З', 'з'), 'И', 'и'), 'Й', 'й'), 'К', 'к'), 'Л', 'л'), 'М', 'м'), 'Н', 'н'), 'О', 'о') FROM assets a WHERE a.asset_id = group_members.el_id), `sort_ctime` = (SELECT a.ctime FROM assets a WHERE a.asset_id = group_members.el_id), `sort_size` = (SELECT x.content_size FROM variants x WHERE x.asset_id = group_members.el_id ORDER BY x.version DESC, x.variant_type IN ('master', 'initial') DESC, x.ctime LIMIT 1) WHERE `el_type` = 'asset';
--> statement-breakpoint
UPDATE `group_members` SET `sort_name` = replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(`sort_name`, 'П', 'п'), 'Р', 'р'), 'С', 'с'), 'Т', 'т'), 'У', 'у'), 'Ф', 'ф'), 'Х', 'х'), 'Ц', 'ц'), 'Ч', 'ч'), 'Ш', 'ш'), 'Щ', 'щ'), 'Ъ', 'ъ'), 'Ы', 'ы'), 'Ь', 'ь'), 'Э', 'э'), 'Ю', 'ю'), 'Я', 'я'), 'ё', 'е') WHERE `el_type` = 'asset';
--> statement-breakpoint
CREATE TRIGGER `group_members_sort_copy` AFTER INSERT ON `group_members` WHEN new.el_type = 'asset' BEGIN
  UPDATE `group_members` SET `sort_name` = (SELECT replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(lower(a.name), 'А', 'а'), 'Б', 'б'), 'В', 'в'), 'Г', 'г'), 'Д', 'д'), 'Е', 'е'), 'Ё', 'е'), 'Ж', 'ж'), 'З', 'з'), 'И', 'и'), 'Й', 'й'), 'К', 'к'), 'Л', 'л'), 'М', 'м'), 'Н', 'н'), 'О', 'о') FROM assets a WHERE a.asset_id = group_members.el_id), `sort_ctime` = (SELECT a.ctime FROM assets a WHERE a.asset_id = group_members.el_id), `sort_size` = (SELECT x.content_size FROM variants x WHERE x.asset_id = group_members.el_id ORDER BY x.version DESC, x.variant_type IN ('master', 'initial') DESC, x.ctime LIMIT 1)
    WHERE `group_id` = new.group_id AND `el_type` = 'asset' AND `el_id` = new.el_id;
  UPDATE `group_members` SET `sort_name` = replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(`sort_name`, 'П', 'п'), 'Р', 'р'), 'С', 'с'), 'Т', 'т'), 'У', 'у'), 'Ф', 'ф'), 'Х', 'х'), 'Ц', 'ц'), 'Ч', 'ч'), 'Ш', 'ш'), 'Щ', 'щ'), 'Ъ', 'ъ'), 'Ы', 'ы'), 'Ь', 'ь'), 'Э', 'э'), 'Ю', 'ю'), 'Я', 'я'), 'ё', 'е') WHERE `group_id` = new.group_id AND `el_type` = 'asset' AND `el_id` = new.el_id;
END;
--> statement-breakpoint
CREATE TRIGGER `assets_sort_insert` AFTER INSERT ON `assets` BEGIN
  UPDATE `group_members` SET `sort_name` = replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(lower(new.name), 'А', 'а'), 'Б', 'б'), 'В', 'в'), 'Г', 'г'), 'Д', 'д'), 'Е', 'е'), 'Ё', 'е'), 'Ж', 'ж'), 'З', 'з'), 'И', 'и'), 'Й', 'й'), 'К', 'к'), 'Л', 'л'), 'М', 'м'), 'Н', 'н'), 'О', 'о'), `sort_ctime` = new.ctime, `sort_size` = (SELECT x.content_size FROM variants x WHERE x.asset_id = group_members.el_id ORDER BY x.version DESC, x.variant_type IN ('master', 'initial') DESC, x.ctime LIMIT 1)
    WHERE `el_id` = new.asset_id AND `el_type` = 'asset';
  UPDATE `group_members` SET `sort_name` = replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(`sort_name`, 'П', 'п'), 'Р', 'р'), 'С', 'с'), 'Т', 'т'), 'У', 'у'), 'Ф', 'ф'), 'Х', 'х'), 'Ц', 'ц'), 'Ч', 'ч'), 'Ш', 'ш'), 'Щ', 'щ'), 'Ъ', 'ъ'), 'Ы', 'ы'), 'Ь', 'ь'), 'Э', 'э'), 'Ю', 'ю'), 'Я', 'я'), 'ё', 'е') WHERE `el_id` = new.asset_id AND `el_type` = 'asset';
END;
--> statement-breakpoint
CREATE TRIGGER `assets_sort_update` AFTER UPDATE OF `name`, `ctime` ON `assets` BEGIN
  UPDATE `group_members` SET `sort_name` = replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(lower(new.name), 'А', 'а'), 'Б', 'б'), 'В', 'в'), 'Г', 'г'), 'Д', 'д'), 'Е', 'е'), 'Ё', 'е'), 'Ж', 'ж'), 'З', 'з'), 'И', 'и'), 'Й', 'й'), 'К', 'к'), 'Л', 'л'), 'М', 'м'), 'Н', 'н'), 'О', 'о'), `sort_ctime` = new.ctime, `sort_size` = (SELECT x.content_size FROM variants x WHERE x.asset_id = group_members.el_id ORDER BY x.version DESC, x.variant_type IN ('master', 'initial') DESC, x.ctime LIMIT 1)
    WHERE `el_id` = new.asset_id AND `el_type` = 'asset';
  UPDATE `group_members` SET `sort_name` = replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(`sort_name`, 'П', 'п'), 'Р', 'р'), 'С', 'с'), 'Т', 'т'), 'У', 'у'), 'Ф', 'ф'), 'Х', 'х'), 'Ц', 'ц'), 'Ч', 'ч'), 'Ш', 'ш'), 'Щ', 'щ'), 'Ъ', 'ъ'), 'Ы', 'ы'), 'Ь', 'ь'), 'Э', 'э'), 'Ю', 'ю'), 'Я', 'я'), 'ё', 'е') WHERE `el_id` = new.asset_id AND `el_type` = 'asset';
END;
--> statement-breakpoint
CREATE TRIGGER `variants_sort_insert` AFTER INSERT ON `variants` BEGIN
  UPDATE `group_members` SET `sort_size` = (SELECT x.content_size FROM variants x WHERE x.asset_id = group_members.el_id ORDER BY x.version DESC, x.variant_type IN ('master', 'initial') DESC, x.ctime LIMIT 1) WHERE `el_id` = new.asset_id AND `el_type` = 'asset';
END;
--> statement-breakpoint
CREATE TRIGGER `variants_sort_delete` AFTER DELETE ON `variants` BEGIN
  UPDATE `group_members` SET `sort_size` = (SELECT x.content_size FROM variants x WHERE x.asset_id = group_members.el_id ORDER BY x.version DESC, x.variant_type IN ('master', 'initial') DESC, x.ctime LIMIT 1) WHERE `el_id` = old.asset_id AND `el_type` = 'asset';
END;
--> statement-breakpoint
CREATE TRIGGER `variants_sort_update` AFTER UPDATE OF `asset_id`, `version`, `variant_type`, `content_size`, `ctime` ON `variants` BEGIN
  UPDATE `group_members` SET `sort_size` = (SELECT x.content_size FROM variants x WHERE x.asset_id = group_members.el_id ORDER BY x.version DESC, x.variant_type IN ('master', 'initial') DESC, x.ctime LIMIT 1) WHERE `el_id` IN (new.asset_id, old.asset_id) AND `el_type` = 'asset';
END;
