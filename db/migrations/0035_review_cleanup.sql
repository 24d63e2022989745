CREATE INDEX `review_inbox_asset_idx` ON `review_inbox` (`asset_id`,`version`);--> statement-breakpoint
-- A version's review (comments, decisions, the request and its reviewers, inbox items) goes with the version, and an
-- asset's with the asset, whichever way they are deleted (a purge, a merge, an empty version's clean-up): every read
-- checks the asset, so the rows were unreachable, but a version number used again would have found them.
CREATE TRIGGER `review_version_delete` AFTER DELETE ON `versions` BEGIN
  DELETE FROM `review_comments` WHERE `asset_id` = old.asset_id AND `version` = old.version;
  DELETE FROM `review_decisions` WHERE `asset_id` = old.asset_id AND `version` = old.version;
  DELETE FROM `review_reviewers` WHERE `request_id` IN (SELECT `request_id` FROM `review_requests` WHERE `asset_id` = old.asset_id AND `version` = old.version);
  DELETE FROM `review_requests` WHERE `asset_id` = old.asset_id AND `version` = old.version;
  DELETE FROM `review_inbox` WHERE `asset_id` = old.asset_id AND `version` = old.version;
END;
--> statement-breakpoint
CREATE TRIGGER `review_asset_delete` AFTER DELETE ON `assets` BEGIN
  DELETE FROM `review_comments` WHERE `asset_id` = old.asset_id;
  DELETE FROM `review_decisions` WHERE `asset_id` = old.asset_id;
  DELETE FROM `review_reviewers` WHERE `request_id` IN (SELECT `request_id` FROM `review_requests` WHERE `asset_id` = old.asset_id);
  DELETE FROM `review_requests` WHERE `asset_id` = old.asset_id;
  DELETE FROM `review_inbox` WHERE `asset_id` = old.asset_id;
END;
