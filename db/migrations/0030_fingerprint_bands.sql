DROP INDEX `perceptual_hashes_b3_idx`;--> statement-breakpoint
DROP INDEX `perceptual_hashes_b4_idx`;--> statement-breakpoint
DROP INDEX `perceptual_hashes_b5_idx`;--> statement-breakpoint
DROP INDEX `perceptual_hashes_b6_idx`;--> statement-breakpoint
DROP INDEX `perceptual_hashes_b7_idx`;--> statement-breakpoint
DROP INDEX `perceptual_hashes_b8_idx`;--> statement-breakpoint
DROP INDEX `perceptual_hashes_b0_idx`;--> statement-breakpoint
DROP INDEX `perceptual_hashes_b1_idx`;--> statement-breakpoint
DROP INDEX `perceptual_hashes_b2_idx`;--> statement-breakpoint
-- The bands are now three (21, 21 and 22 bits, functions/duplicates/hashes.ts): recomputed from each stored hash.
UPDATE `perceptual_hashes` SET `b0` = (((instr('0123456789abcdef', substr(hash, 1, 1)) - 1) << 20) | ((instr('0123456789abcdef', substr(hash, 2, 1)) - 1) << 16) | ((instr('0123456789abcdef', substr(hash, 3, 1)) - 1) << 12) | ((instr('0123456789abcdef', substr(hash, 4, 1)) - 1) << 8) | ((instr('0123456789abcdef', substr(hash, 5, 1)) - 1) << 4) | ((instr('0123456789abcdef', substr(hash, 6, 1)) - 1) << 0)) >> 3,
  `b1` = ((((instr('0123456789abcdef', substr(hash, 6, 1)) - 1) << 20) | ((instr('0123456789abcdef', substr(hash, 7, 1)) - 1) << 16) | ((instr('0123456789abcdef', substr(hash, 8, 1)) - 1) << 12) | ((instr('0123456789abcdef', substr(hash, 9, 1)) - 1) << 8) | ((instr('0123456789abcdef', substr(hash, 10, 1)) - 1) << 4) | ((instr('0123456789abcdef', substr(hash, 11, 1)) - 1) << 0)) >> 2) & 2097151,
  `b2` = (((instr('0123456789abcdef', substr(hash, 11, 1)) - 1) << 20) | ((instr('0123456789abcdef', substr(hash, 12, 1)) - 1) << 16) | ((instr('0123456789abcdef', substr(hash, 13, 1)) - 1) << 12) | ((instr('0123456789abcdef', substr(hash, 14, 1)) - 1) << 8) | ((instr('0123456789abcdef', substr(hash, 15, 1)) - 1) << 4) | ((instr('0123456789abcdef', substr(hash, 16, 1)) - 1) << 0)) & 4194303;--> statement-breakpoint
CREATE INDEX `perceptual_hashes_b0_idx` ON `perceptual_hashes` (`b0`,`asset_id`,`hash`) WHERE kind IN ('dhash', 'scene');--> statement-breakpoint
CREATE INDEX `perceptual_hashes_b1_idx` ON `perceptual_hashes` (`b1`,`asset_id`,`hash`) WHERE kind IN ('dhash', 'scene');--> statement-breakpoint
CREATE INDEX `perceptual_hashes_b2_idx` ON `perceptual_hashes` (`b2`,`asset_id`,`hash`) WHERE kind IN ('dhash', 'scene');--> statement-breakpoint
ALTER TABLE `perceptual_hashes` DROP COLUMN `b3`;--> statement-breakpoint
ALTER TABLE `perceptual_hashes` DROP COLUMN `b4`;--> statement-breakpoint
ALTER TABLE `perceptual_hashes` DROP COLUMN `b5`;--> statement-breakpoint
ALTER TABLE `perceptual_hashes` DROP COLUMN `b6`;--> statement-breakpoint
ALTER TABLE `perceptual_hashes` DROP COLUMN `b7`;--> statement-breakpoint
ALTER TABLE `perceptual_hashes` DROP COLUMN `b8`;