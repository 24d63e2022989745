-- The stems search_segments holds, for expanding a query's prefix (`"собак"*`) into its terms once per search
-- (functions/search/transcript-hits.ts): FTS5 merges a prefix's postings over the whole index on every lookup.
CREATE VIRTUAL TABLE `search_segments_vocab` USING fts5vocab(`search_segments`, 'row');
