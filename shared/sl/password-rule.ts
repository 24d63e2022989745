/** The shortest share-link password; no imports, so the create form checks it without loading zod. */
export const sharePasswordMinLength = 8;
