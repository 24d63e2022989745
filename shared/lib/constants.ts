/**
 * Values the API and the browser must agree on. No imports: app/ and functions/ both read this file.
 */

/** The virtual root 'Доступные Файлы': lists the top-most groups the caller can read. */
export const VIRTUAL_ROOT_ID = "ffffffff-ffff-ffff-ffff-ffffffffffff";
export const VIRTUAL_ROOT_NAME = "Доступные Файлы";

/** The lists' default page: a page shorter than this is the last one. */
export const PAGE_SIZE = 50;

/**
 * Characters of a document's text that search keeps (functions/search, the transcoder's text operation): one
 * D1 value stays well under its limit, and a result carrying it stays a modest request.
 */
export const MAX_DOCUMENT_TEXT = 300_000;
