-- Locks are keyed by object (group or asset id) instead of path. A lock lives an hour at most and a path
-- cannot be turned into an object for every user's tree, so the table is made anew: a client holding a
-- lock across this migration is answered 412 on its next refresh and takes a new one.
DROP TABLE `dav_locks`;--> statement-breakpoint
CREATE TABLE `dav_locks` (
	`token` text PRIMARY KEY NOT NULL,
	`entity_id` text NOT NULL,
	`depth` integer NOT NULL,
	`shared` integer NOT NULL,
	`owner_xml` text DEFAULT '' NOT NULL,
	`user_id` text NOT NULL,
	`timeout_seconds` integer NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `dav_locks_entity_idx` ON `dav_locks` (`entity_id`);
