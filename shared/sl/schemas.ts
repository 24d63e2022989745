import { z } from "@hono/zod-openapi";
import { sharePasswordMinLength } from "./password-rule";

/**
 * Share-link payloads (time_range, password, acl, email; docs/decisions/010-share-links.md). No server
 * imports: the asset info screen's form reuses these. Messages are Russian: they reach the toast.
 */

export const shareLinkAclValues = ["view", "download_original", "download_proxy"] as const;
export type ShareLinkAclValue = (typeof shareLinkAclValues)[number];

/** 22 base62 characters (~131 random bits); also what the open-route list in functions/lib/auth.ts matches. */
export const linkIdPattern = /^[0-9A-Za-z]{22}$/;
export const linkId = z.string().regex(linkIdPattern, "неверный идентификатор ссылки");
export const linkIdParam = z.object({ id: linkId.openapi({ param: { name: "id", in: "path" } }) });

const unixSeconds = z
  .number({ error: "нужно время в секундах Unix или null" })
  .int("нужно целое число секунд")
  .min(0)
  .max(2 ** 40);

/** [start, end] in unix seconds, either end null = open; end must not be before start. */
export const timeRange = z
  .tuple([unixSeconds.nullable(), unixSeconds.nullable()], { error: "нужен массив из двух значений [начало, конец]" })
  .refine(([start, end]) => start === null || end === null || end >= start, { message: "конец раньше начала", path: [1] });

export const acl = z
  .array(z.enum(shareLinkAclValues, { error: `допустимые значения: ${shareLinkAclValues.join(", ")}` }))
  .min(1, "нужно хотя бы одно право")
  .max(shareLinkAclValues.length)
  .refine((a) => new Set(a).size === a.length, "значения не должны повторяться");

export const password = z
  .string()
  .min(sharePasswordMinLength, `пароль не короче ${sharePasswordMinLength} символов`)
  .max(256, "пароль не длиннее 256 символов");

export const emails = z.array(z.email("неверный адрес почты").max(254)).max(20, "не больше 20 адресов");

export const downloadLimit = z.number().int("нужно целое число").min(1, "не меньше 1").max(1_000_000);

export const createLinkBody = z
  .object({
    time_range: timeRange.default([null, null]),
    password: password.nullable().optional(),
    acl,
    email: emails.default([]),
    download_limit: downloadLimit.nullable().optional(),
  })
  .openapi("ShareLinkCreate");

/** PATCH: any subset; password null removes it, a string replaces it. */
export const patchLinkBody = z
  .object({
    time_range: timeRange.optional(),
    password: password.nullable().optional(),
    acl: acl.optional(),
    email: emails.optional(),
    download_limit: downloadLimit.nullable().optional(),
  })
  .openapi("ShareLinkPatch");

export const unlockBody = z.object({ password: z.string().min(1, "введите пароль").max(256) }).openapi("ShareLinkUnlock");

export type CreateLinkBody = z.infer<typeof createLinkBody>;
export type PatchLinkBody = z.infer<typeof patchLinkBody>;

/** A share link proper, or a review link (decision 061, "External reviewers"); the values of share_links.kind, kept here free of server imports. */
export const shareLinkKinds = ["share", "review"] as const;

export const linkStates = ["active", "scheduled", "expired", "revoked", "exhausted"] as const;
export type LinkState = (typeof linkStates)[number];

export const linkOut = z
  .object({
    link_id: z.string().describe("the full id for callers who may manage the link; otherwise its first 4 characters and …"),
    manageable: z.boolean(),
    asset_id: z.string(),
    creator: z.string(),
    time_range: z.tuple([z.number().nullable(), z.number().nullable()]),
    has_password: z.boolean(),
    acl: z.array(z.enum(shareLinkAclValues)),
    email: z.array(z.string()),
    download_limit: z.number().nullable(),
    view_count: z.number(),
    download_count: z.number(),
    state: z.enum(linkStates),
    ctime: z.number(),
    mtime: z.number(),
    revoked_at: z.number().nullable(),
    kind: z
      .enum(shareLinkKinds)
      .openapi({ description: "`review`: a review link made by POST /api/review/requests for one outside reviewer (decision 061)" }),
    review_version: z.number().nullable().openapi({ description: "a review link's version (its round); null for share links" }),
  })
  .openapi("ShareLink");
export type LinkOut = z.infer<typeof linkOut>;

/** What the public page needs. Before a password is given only link_id and password_required are filled. */
export const publicInfo = z
  .object({
    link_id: z.string(),
    password_required: z.boolean(),
    unlocked: z.boolean(),
    name: z.string().nullable(),
    mime: z.string().nullable(),
    size: z.number().nullable(),
    kind: z.enum(["image", "video", "audio", "other"]).nullable(),
    preview: z.string().nullable(),
    play: z.string().nullable(),
    download: z.string().nullable(),
    download_proxy: z.string().nullable(),
    expires_at: z.number().nullable(),
  })
  .openapi("ShareLinkInfo");
export type PublicInfo = z.infer<typeof publicInfo>;
