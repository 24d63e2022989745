ALTER TABLE `search_vectors` ADD `vec8` blob;--> statement-breakpoint
ALTER TABLE `search_vectors` ADD `scale` real;