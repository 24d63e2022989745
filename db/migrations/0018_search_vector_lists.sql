CREATE TABLE `search_vector_lists` (
	`model` text NOT NULL,
	`list` integer NOT NULL,
	`centroid` blob NOT NULL,
	`trained_on` integer NOT NULL,
	PRIMARY KEY(`model`, `list`)
);
--> statement-breakpoint
ALTER TABLE `search_vectors` ADD `list` integer;--> statement-breakpoint
CREATE INDEX `search_vectors_list_idx` ON `search_vectors` (`model`,`list`);