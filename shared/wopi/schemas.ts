import { z } from "@hono/zod-openapi";
import { uuid } from "../assets/schemas";

/** The WOPI host's shapes: shared by the API and the editor page (no server imports). */

export const fileParam = z.object({ id: uuid.openapi({ param: { name: "id", in: "path" } }) });
export const accessQuery = z.object({ access_token: z.string().max(4096).optional() });

export const tokenAnswer = z
  .object({
    access_token: z.string(),
    /** When the token lapses, in milliseconds since the epoch (as WOPI defines access_token_ttl). */
    access_token_ttl: z.number(),
    /** The file's CheckFileInfo address. */
    wopi_src: z.string(),
    /** The office client's page for this file when one is configured and opens this type; else null. */
    urlsrc: z.string().nullable(),
    can_write: z.boolean(),
  })
  .openapi("WopiToken");
export type WopiToken = z.infer<typeof tokenAnswer>;

export const checkFileInfo = z
  .object({
    BaseFileName: z.string(),
    Size: z.number(),
    OwnerId: z.string(),
    UserId: z.string(),
    UserFriendlyName: z.string(),
    Version: z.string(),
    LastModifiedTime: z.string(),
    UserCanWrite: z.boolean(),
    UserCanNotWriteRelative: z.boolean(),
    UserCanRename: z.boolean(),
    ReadOnly: z.boolean(),
    SupportsLocks: z.boolean(),
    SupportsGetLock: z.boolean(),
    SupportsUpdate: z.boolean(),
    SupportsRename: z.boolean(),
    SupportsExtendedLockLength: z.boolean(),
    SupportsUserInfo: z.boolean(),
    UserInfo: z.string(),
    PostMessageOrigin: z.string(),
    CloseUrl: z.string(),
    HostEditUrl: z.string(),
    HostViewUrl: z.string(),
    LockedByName: z.string().nullable(),
  })
  .openapi("WopiCheckFileInfo");
export type CheckFileInfo = z.infer<typeof checkFileInfo>;

/** The text types the built-in editor opens (by extension: what the user sees and what decides the highlighting). */
export const textExtensions = ["txt", "md", "csv", "json", "xml", "srt", "vtt"] as const;
