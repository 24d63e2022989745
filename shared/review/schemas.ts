import { z } from "@hono/zod-openapi";
import { entityId } from "../groups/schemas";
import { password } from "../sl/schemas";

/**
 * Review and approval (docs/decisions/061-review-and-approval.md): comments at frames, pages and regions, drawings,
 * approval per version. No server imports: the viewer's panel may reuse these.
 */

export const reviewStatuses = ["approved", "changes_requested", "rejected"] as const;
export const overallStatuses = ["pending", ...reviewStatuses] as const;
export type ReviewStatus = (typeof reviewStatuses)[number];
export type OverallStatus = (typeof overallStatuses)[number];
export const exportFormats = ["csv", "edl", "vtt"] as const;
export const shapeTypes = ["rect", "ellipse", "arrow", "path", "text"] as const;

export const MAX_BODY = 10_000;
export const MAX_SHAPES = 100;
export const MAX_POINTS = 2_000;
export const MAX_REVIEWERS = 50;

const int = (min: number, max: number) =>
  z.number({ error: "должно быть числом" }).int("должно быть целым").min(min, `не меньше ${min}`).max(max, `не больше ${max}`);
const unit = z.number({ error: "должно быть числом" }).min(0, "от 0 до 1").max(1, "от 0 до 1");

/**
 * A moment: a frame with the rate it was counted at (exact, as ffprobe's r_frame_rate: 30000/1001), or seconds.
 * One object rather than a union, so a wrong value is reported at its own key (at.frame, at.fps_den).
 */
export const moment = z
  .object({
    frame: int(0, 1_000_000_000).optional(),
    fps_num: int(1, 1_000_000).optional(),
    fps_den: int(1, 1_000_000).optional(),
    seconds: z.number({ error: "должно быть числом" }).min(0, "не меньше 0").max(1_000_000, "слишком большое время").optional(),
  })
  .strict()
  .superRefine((m, ctx) => {
    const issue = (key: string, message: string) => ctx.addIssue({ code: "custom", path: [key], message });
    if (m.seconds !== undefined) {
      if (m.frame !== undefined || m.fps_num !== undefined || m.fps_den !== undefined)
        issue("seconds", "либо seconds, либо frame с fps_num и fps_den");
      return;
    }
    for (const k of ["frame", "fps_num", "fps_den"] as const)
      if (m[k] === undefined) issue(k, "обязательное поле ({frame, fps_num, fps_den} или {seconds})");
    if (m.fps_num && m.fps_den && (m.fps_num / m.fps_den < 1 || m.fps_num / m.fps_den > 1000))
      issue("fps_num", "частота кадров — от 1 до 1000 в секунду");
  });
export type Moment = z.infer<typeof moment>;

// The sum is checked only once each value is within 0–1 itself (zod runs this even when one is not).
const inUnit = (...v: number[]) => v.every((n) => n >= 0 && n <= 1);
export const region = z
  .object({ x: unit, y: unit, w: unit, h: unit })
  .refine((r) => !inUnit(r.x, r.y, r.w, r.h) || (r.x + r.w <= 1 + 1e-9 && r.y + r.h <= 1 + 1e-9), {
    message: "область выходит за кадр",
    path: ["w"],
  });

export const shape = z
  .object({
    type: z.enum(shapeTypes, { error: `одно из: ${shapeTypes.join(", ")}` }),
    x: unit.optional(),
    y: unit.optional(),
    w: unit.optional(),
    h: unit.optional(),
    points: z
      .array(z.tuple([unit, unit]))
      .max(MAX_POINTS, `не больше ${MAX_POINTS} точек`)
      .optional(),
    text: z.string().max(1000, "не длиннее 1000 символов").optional(),
    color: z.string({ error: "обязательное поле" }).regex(/^#[0-9a-fA-F]{6}$/, "цвет вида #RRGGBB"),
  })
  .strict()
  .superRefine((s, ctx) => {
    const need = (key: string, ok: boolean, message: string) => ok || ctx.addIssue({ code: "custom", path: [key], message });
    if (s.type === "rect" || s.type === "ellipse")
      for (const k of ["x", "y", "w", "h"] as const) need(k, s[k] !== undefined, `нужно для ${s.type}`);
    if (s.type === "arrow") need("points", s.points?.length === 2, "стрелке нужны две точки");
    if (s.type === "path") need("points", (s.points?.length ?? 0) >= 2, "линии нужны хотя бы две точки");
    if (s.type === "text") {
      need("text", !!s.text?.trim(), "нужен текст");
      need("x", s.x !== undefined && s.y !== undefined, "нужны x и y");
    }
  });
export type Shape = z.infer<typeof shape>;

const body = z
  .string({ error: "обязательное поле" })
  .trim()
  .min(1, "не может быть пустым")
  .max(MAX_BODY, `не длиннее ${MAX_BODY} символов`);
const version = int(1, 1_000_000);
/** A PDF page, from 1 (the upper bound is the version's page count once known: checked by the service). */
export const pageNumber = int(1, 100_000);

export const commentBody = z
  .object({
    asset_id: entityId,
    version: version.optional().openapi({ description: "the asset version; the latest when absent (a reply: its thread's)" }),
    body,
    at: moment.optional(),
    until: moment.optional().openapi({ description: "a range's end, after `at`" }),
    page: pageNumber.optional().openapi({ description: "the PDF page, from 1 (at most the version's `pages` once counted)" }),
    region: region.optional(),
    shapes: z.array(shape).max(MAX_SHAPES, `не больше ${MAX_SHAPES} фигур`).optional(),
    parent_id: entityId.optional().openapi({ description: "a reply to this comment" }),
    internal: z.boolean({ error: "да или нет" }).default(false).openapi({ description: "the team only: guests never see it" }),
  })
  .refine((c) => !c.until || c.at, { message: "конец диапазона без начала (at)", path: ["until"] })
  .openapi("ReviewCommentIn");
export type CommentBody = z.infer<typeof commentBody>;

export const commentPatch = z
  .object({ body: body.optional(), resolved: z.boolean({ error: "да или нет" }).optional() })
  .refine((p) => p.body !== undefined || p.resolved !== undefined, { message: "нечего менять: body или resolved", path: ["body"] })
  .openapi("ReviewCommentPatch");

export const commentParam = z.object({ id: entityId.openapi({ param: { name: "id", in: "path" } }) });
export const assetParam = z.object({ asset_id: entityId.openapi({ param: { name: "asset_id", in: "path" } }) });

/** A short-lived ticket to an asset's live review room (./live-routes.ts). */
export const liveTicketOut = z
  .object({
    ticket: z.string().openapi({ description: "For GET /api/review/live/{asset_id}?ticket=…, once, within a minute" }),
    expires: z.number().int().openapi({ description: "Unix seconds" }),
  })
  .openapi("ReviewLiveTicket");
const queryVersion = z.coerce.number({ error: "должно быть числом" }).int("должно быть целым").min(1, "нумерация с 1").optional();
export const listQuery = z.object({ asset_id: entityId, version: queryVersion });
export const versionQuery = z.object({ version: queryVersion });
export const exportQuery = z.object({
  version: queryVersion,
  format: z.enum(exportFormats, { error: "csv, edl или vtt" }),
  drop_frame: z
    .enum(["true", "false", "1", "0"], { error: "true или false" })
    .optional()
    .openapi({ description: "EDL: drop-frame timecode, only when the proxy runs at 29.97 or 59.94" }),
});

const momentOut = z.object({
  frame: z.number().int(),
  fps_num: z.number().int(),
  fps_den: z.number().int(),
  seconds: z.number(),
  timecode: z.string().openapi({ description: "HH:MM:SS:FF from 00:00:00:00, non-drop-frame" }),
});

const commentFields = {
  comment_id: z.string(),
  asset_id: z.string(),
  version: z.number().int(),
  parent_id: z.string().nullable(),
  body: z.string(),
  author: z.object({
    user_id: z.string().nullable(),
    name: z.string().nullable(),
    guest: z.boolean().openapi({ description: "an external reviewer of a review link: `name` is the one they gave" }),
  }),
  at: momentOut.nullable(),
  until: momentOut.nullable(),
  rate_matches: z
    .boolean()
    .nullable()
    .openapi({ description: "the comment's rate equals the proxy's; null while either is unknown (a comment may come before the proxy)" }),
  page: z.number().int().nullable(),
  region: z.object({ x: z.number(), y: z.number(), w: z.number(), h: z.number() }).nullable(),
  shapes: z.array(z.record(z.string(), z.unknown())).openapi({ description: "vectors in 0–1 coordinates" }),
  internal: z.boolean(),
  resolved: z.boolean(),
  ctime: z.number(),
  mtime: z.number(),
};
export const commentOut = z.object({ ...commentFields, replies: z.array(z.object(commentFields)) }).openapi("ReviewComment");
export type CommentOut = z.infer<typeof commentOut>;
export const commentsOut = z
  .object({
    asset_id: z.string(),
    version: z.number().int(),
    rate: z.object({ fps_num: z.number().int(), fps_den: z.number().int() }).nullable().openapi({ description: "the proxy's, when known" }),
    pages: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "a PDF's page count once the metadata job has counted it (a `page` past it is refused); else null" }),
    items: z.array(commentOut),
  })
  .openapi("ReviewComments");
export type CommentsOut = z.infer<typeof commentsOut>;
export const commentCreated = z.object({ comment_id: z.string(), version: z.number().int() }).openapi("ReviewCommentCreated");
export const ok = z.object({ ok: z.literal(true) }).openapi("ReviewOk");

export const requestBody = z
  .object({
    asset_id: entityId,
    version: version.optional().openapi({ description: "the latest when absent" }),
    reviewers: z
      .array(z.string({ error: "id пользователя или адрес e-mail" }).trim().min(1).max(320))
      .min(1, "хотя бы один рецензент")
      .max(MAX_REVIEWERS, `не больше ${MAX_REVIEWERS}`),
    due: z.number({ error: "должно быть числом" }).int("Unix-время в секундах").min(0).optional(),
    all_must_approve: z.boolean({ error: "да или нет" }).optional().openapi({ description: "default: one approval is enough" }),
    // The review links made for e-mail reviewers without an account (decision 061, "External reviewers").
    password: password
      .optional()
      .openapi({ description: "review links: the password a guest enters before anything is shown (share links' rule)" }),
    expires_at: z
      .number({ error: "должно быть числом" })
      .int("Unix-время в секундах")
      .min(0)
      .optional()
      .openapi({ description: "review links: the last moment they work (unix seconds); open-ended when absent" }),
    allow_download: z
      .boolean({ error: "да или нет" })
      .optional()
      .openapi({ description: "review links: the guest may also download the proxy (needs download on the asset); default no" }),
    confirm_email: z
      .boolean({ error: "да или нет" })
      .optional()
      .openapi({ description: "review links: the guest confirms the address by a mailed code before commenting or deciding" }),
  })
  .openapi("ReviewRequestIn");
export type RequestBody = z.infer<typeof requestBody>;
export const requestOut = z
  .object({
    request_id: z.string(),
    version: z.number().int(),
    links: z.array(z.object({ email: z.string(), url: z.string() })).openapi({ description: "review links for e-mail reviewers" }),
  })
  .openapi("ReviewRequestCreated");

export const decisionBody = z
  .object({
    version: version.optional().openapi({ description: "the latest when absent" }),
    status: z.enum(reviewStatuses, { error: `одно из: ${reviewStatuses.join(", ")}` }),
    note: z.string().trim().max(MAX_BODY, `не длиннее ${MAX_BODY} символов`).optional(),
  })
  .openapi("ReviewDecisionIn");
export type DecisionBody = z.infer<typeof decisionBody>;

const decisionOut = z.object({
  user_id: z.string(),
  name: z.string().nullable(),
  guest: z.boolean(),
  status: z.enum(reviewStatuses),
  note: z.string(),
  ctime: z.number(),
});
export const roundOut = z.object({
  version: z.number().int(),
  request_id: z.string().nullable(),
  all_must_approve: z.boolean(),
  due: z.number().nullable(),
  overall: z.enum(overallStatuses),
  reviewers: z.array(
    z.object({
      user_id: z.string(),
      name: z.string().nullable(),
      requested: z.boolean().openapi({ description: "named in the request (others decided with update on the asset)" }),
      guest: z.boolean().openapi({ description: "an external reviewer (a review link); `user_id` is the link's reviewer id" }),
      email: z
        .string()
        .nullable()
        .openapi({ description: "a guest's address, for callers with update on the asset (who manage the round); else null" }),
      status: z.enum(overallStatuses),
      note: z.string(),
      ctime: z.number().nullable(),
    }),
  ),
  decisions: z.array(decisionOut).openapi({ description: "every decision of the round, oldest first" }),
});
export type RoundOut = z.infer<typeof roundOut>;
export const approvalOut = roundOut
  .extend({
    asset_id: z.string(),
    rounds: z.array(roundOut).openapi({ description: "every version's round, newest first" }),
  })
  .openapi("ReviewApproval");
export type ApprovalOut = z.infer<typeof approvalOut>;
