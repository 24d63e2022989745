-- A search document's transcript, one row a segment (functions/search/transcript-hits.ts, docs/decisions/059-transcripts.md):
-- its stemmed words to match, its start and its text to show. rowid = doc_id * 1048576 + the segment's index, so a
-- document's segments are one rowid range FTS5 seeks to. The indexer writes them with the document.
CREATE VIRTUAL TABLE `search_segments` USING fts5(`stems`, `start` UNINDEXED, `text` UNINDEXED, tokenize='unicode61 remove_diacritics 0');
--> statement-breakpoint
CREATE TRIGGER `search_segments_doc_delete` AFTER DELETE ON `search_docs` BEGIN
  DELETE FROM `search_segments` WHERE `rowid` >= old.doc_id * 1048576 AND `rowid` < (old.doc_id + 1) * 1048576;
END;
--> statement-breakpoint
-- Transcripts already saved get their segments at the next indexing.
INSERT INTO `search_dirty` (`el_id`, `el_type`) SELECT DISTINCT `asset_id`, 'asset' FROM `transcripts` WHERE true ON CONFLICT (`el_id`) DO UPDATE SET `mark` = `mark` + 1;
