import { z } from "@hono/zod-openapi";
import { entityId } from "../groups/schemas";
import { linkId } from "../sl/schemas";
import { commentPatch, MAX_BODY, MAX_SHAPES, moment, overallStatuses, pageNumber, region, reviewStatuses, shape } from "./schemas";

/**
 * The guest side of review links (docs/decisions/061-review-and-approval.md, "External reviewers"). A guest names no
 * asset or version (the link fixes both) and cannot mark a comment internal: such keys are refused.
 */

export const guestParam = z.object({ link_id: linkId.openapi({ param: { name: "link_id", in: "path" } }) });
export const guestCommentParam = guestParam.extend({ id: entityId.openapi({ param: { name: "id", in: "path" } }) });

export const guestName = z
  .string({ error: "обязательное поле" })
  .trim()
  .min(1, "представьтесь")
  .max(100, "не длиннее 100 символов")
  .refine((n) => !/\p{Cc}/u.test(n), "без управляющих символов");
export const nameBody = z.object({ name: guestName }).strict().openapi("ReviewGuestName");
export const codeBody = z
  .object({
    code: z
      .string({ error: "обязательное поле" })
      .trim()
      .regex(/^\d{6}$/, "шесть цифр из письма"),
  })
  .strict()
  .openapi("ReviewGuestCode");

export const guestCommentBody = z
  .object({
    body: z.string({ error: "обязательное поле" }).trim().min(1, "не может быть пустым").max(MAX_BODY, `не длиннее ${MAX_BODY} символов`),
    at: moment.optional(),
    until: moment.optional(),
    page: pageNumber.optional(),
    region: region.optional(),
    shapes: z.array(shape).max(MAX_SHAPES, `не больше ${MAX_SHAPES} фигур`).optional(),
    parent_id: entityId.optional(),
  })
  .strict()
  .refine((c) => !c.until || c.at, { message: "конец диапазона без начала (at)", path: ["until"] })
  .openapi("ReviewGuestCommentIn");
export type GuestCommentBody = z.infer<typeof guestCommentBody>;
export const guestCommentPatch = commentPatch;

export const guestDecisionBody = z
  .object({
    status: z.enum(reviewStatuses, { error: `одно из: ${reviewStatuses.join(", ")}` }),
    note: z.string().trim().max(MAX_BODY, `не длиннее ${MAX_BODY} символов`).optional(),
  })
  .strict()
  .openapi("ReviewGuestDecisionIn");
export type GuestDecisionBody = z.infer<typeof guestDecisionBody>;

const approval = z.object({
  overall: z.enum(overallStatuses),
  status: z.enum(overallStatuses).openapi({ description: "the guest's own latest decision" }),
  note: z.string(),
});
export const guestApprovalOut = approval.openapi("ReviewGuestApproval");

export const guestInfo = z
  .object({
    link_id: z.string(),
    password_required: z.boolean(),
    unlocked: z.boolean().openapi({ description: "before the password everything below is null" }),
    expires_at: z.number().nullable(),
    asset: z.object({ name: z.string(), mime: z.string(), kind: z.enum(["image", "video", "audio", "other"]) }).nullable(),
    version: z.number().int().nullable(),
    rate: z.object({ fps_num: z.number().int(), fps_den: z.number().int() }).nullable(),
    play: z.string().nullable().openapi({ description: "the version's proxy, inline (never the original)" }),
    download: z.string().nullable().openapi({ description: "the proxy as a download, only when the request allowed it" }),
    guest: z
      .object({
        name: z.string().nullable().openapi({ description: "the name given in this browser's session of the link" }),
        confirm_email: z.boolean(),
        email_confirmed: z.boolean(),
        email: z.string().openapi({ description: "the address, masked" }),
      })
      .nullable(),
    approval: approval.nullable(),
  })
  .openapi("ReviewGuestInfo");
export type GuestInfo = z.infer<typeof guestInfo>;

export const guestLiveTicketOut = z
  .object({
    ticket: z.string().openapi({ description: "For GET /api/review/live/{asset_id}?ticket=…, once, within a minute" }),
    expires: z.number().int().openapi({ description: "Unix seconds" }),
    asset_id: z.string().openapi({ description: "The room to join: the link's asset" }),
    version: z.number().int().openapi({ description: "The link's version: the only one the guest hears of" }),
  })
  .openapi("ReviewGuestLiveTicket");
export type GuestLiveTicket = z.infer<typeof guestLiveTicketOut>;
