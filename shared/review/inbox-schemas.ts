import { z } from "@hono/zod-openapi";
import { shortPageTake } from "../lib/params";
import { entityId } from "../groups/schemas";

/** «Входящие» (docs/decisions/061-review-and-approval.md): mentions and review requests. No server imports. */

export const inboxKinds = ["mention", "request"] as const;
export const MAX_READ_IDS = 500;

export const inboxQuery = z.object({
  skip: z.coerce.number({ error: "должно быть числом" }).int("должно быть целым").min(0, "не меньше 0").default(0),
  take: shortPageTake,
});

export const inboxRead = z
  .object({
    ids: z
      .array(entityId)
      .min(1, "хотя бы один id")
      .max(MAX_READ_IDS, `не больше ${MAX_READ_IDS}`)
      .optional()
      .openapi({ description: "the caller's items to mark read (others' ids are ignored)" }),
    all: z.literal(true, { error: "только true" }).optional().openapi({ description: "mark every item of the caller read" }),
  })
  .strict()
  .refine((b) => (b.ids === undefined) !== (b.all === undefined), { message: "либо ids, либо all: true", path: ["ids"] })
  .openapi("ReviewInboxRead");
export type InboxRead = z.infer<typeof inboxRead>;

export const inboxItem = z
  .object({
    item_id: z.string(),
    kind: z.enum(inboxKinds),
    asset_id: z.string(),
    asset_name: z.string(),
    group_id: z.string().nullable().openapi({ description: "a group the asset is in, for the viewer's address" }),
    version: z.number().int(),
    comment_id: z.string().nullable(),
    request_id: z.string().nullable(),
    actor: z.object({ user_id: z.string().nullable(), name: z.string().nullable() }),
    body: z.string().nullable().openapi({ description: "the mentioning comment's text" }),
    at: z
      .object({ frame: z.number().int(), fps_num: z.number().int(), fps_den: z.number().int(), seconds: z.number(), timecode: z.string() })
      .nullable()
      .openapi({ description: "the comment's moment" }),
    ctime: z.number(),
    read: z.boolean(),
  })
  .openapi("ReviewInboxItem");
export type InboxItem = z.infer<typeof inboxItem>;

export const inboxOut = z
  .object({
    items: z.array(inboxItem).openapi({ description: "newest first" }),
    total: z.number().int(),
    unread: z.number().int(),
  })
  .openapi("ReviewInbox");
export type InboxOut = z.infer<typeof inboxOut>;

export const inboxReadOut = z.object({ marked: z.number().int(), unread: z.number().int() }).openapi("ReviewInboxReadOut");
