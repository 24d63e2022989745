/**
 * The newest database session bookmark this tab has seen (functions/lib/db-session.ts). Sent with every API
 * call, so after a write the next reads come from a copy of the database that already has it.
 */
export const BOOKMARK_HEADER = "X-D1-Bookmark";

let latest: string | null = null;

/** Answers may arrive out of order: bookmarks grow with the commit position, so the greatest is kept. */
export function noteBookmark(bookmark: string | null | undefined) {
  if (bookmark && (latest === null || bookmark > latest)) latest = bookmark;
}

export const noteBookmarkOf = (response: Response) => noteBookmark(response.headers.get(BOOKMARK_HEADER));

export function withBookmark(headers: Headers) {
  if (latest) headers.set(BOOKMARK_HEADER, latest);
  return headers;
}

export const currentBookmark = () => latest;
