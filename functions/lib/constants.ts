/**
 * Values the API and the browser must agree on. No imports: app/ and functions/ both read this file.
 */

/** The virtual root 'Доступные Файлы': lists the top-most groups the caller can read. */
export const VIRTUAL_ROOT_ID = "ffffffff-ffff-ffff-ffff-ffffffffffff";
export const VIRTUAL_ROOT_NAME = "Доступные Файлы";

/** The lists' default page: a page shorter than this is the last one. */
export const PAGE_SIZE = 50;
