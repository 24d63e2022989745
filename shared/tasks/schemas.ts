import { z } from "@hono/zod-openapi";
import { uuid } from "../assets/schemas";
import { PAGE_SIZE } from "../lib/constants";
import { operationClasses } from "../lib/operation-classes";
import { taskCommands } from "./transitions";

export { operationClasses };

/** Tasks and templates: shared by the API validator and the front end (no server imports). */

/** The same list as db/schema/tasks.ts (kept here so app/ need not import drizzle); the classes are shared/lib/operation-classes.ts. */
export const taskStatuses = ["none", "inqueue", "running", "paused", "canceled", "done", "error"] as const;
const int = (min: number, max: number) =>
  z.coerce.number({ error: "должно быть числом" }).int("должно быть целым").min(min, `не меньше ${min}`).max(max, `не больше ${max}`);

export const idParam = z.object({ id: uuid.openapi({ param: { name: "id", in: "path" } }) });
export const classParam = z.object({
  class: z
    .enum([...operationClasses, "all"], { error: `одно из: ${[...operationClasses, "all"].join(", ")}` })
    .openapi({ param: { name: "class", in: "path" } }),
});

const statusList = z
  .string()
  .transform((s) =>
    s
      .split(",")
      .map((x) => x.trim())
      .filter(Boolean),
  )
  .pipe(z.array(z.enum(taskStatuses, { error: `статусы: ${taskStatuses.join(", ")}` })));

/** Filters of GET current and current/count; `status` takes a comma-separated list. */
export const taskFilter = z.object({
  status: statusList.optional(),
  owner: uuid.optional(),
  template: uuid.optional(),
  entity: uuid.optional().openapi({ description: "asset or variant id" }),
});
export const taskQuery = taskFilter.extend({ skip: int(0, 1_000_000).default(0), take: int(1, 200).default(PAGE_SIZE) });

export const commandBody = z
  .object({
    command: z.enum(taskCommands, { error: `одна из команд: ${taskCommands.join(", ")}` }),
    options: z.record(z.string(), z.unknown()).optional(),
  })
  .openapi("TaskCommand");
export const priorityBody = z.object({ priority: int(-100, 100) }).openapi("TaskPriority");
export const statusBody = z.object({ ids: z.array(uuid).min(1, "список пуст").max(200, "не больше 200 за раз") }).openapi("TaskIds");
export const enqueueBody = z
  .object({
    template_id: uuid,
    version: int(1, 1_000_000).optional(),
    variant_id: uuid.optional().openapi({ description: "source variant; default: the version's original" }),
    priority: int(-100, 100).default(0),
    /** Create it held (status none); resume queues it. */
    hold: z.boolean().default(false),
  })
  .openapi("EnqueueTask");
export const logQuery = z.object({ after: int(0, Number.MAX_SAFE_INTEGER).default(0), take: int(1, 1000).default(500) });

const mimePrefixes = z
  .array(
    z
      .string()
      .trim()
      .toLowerCase()
      .regex(/^[a-z0-9.+-]+\/[a-z0-9.+*-]*$/, "префикс MIME-типа вида video/ или application/pdf"),
  )
  .max(20);
const size = (max: number) => int(16, max);
const bitrate = z.string().regex(/^\d+(\.\d+)?[kM]$/, "битрейт вида 800k или 3M");
const variantType = z.enum(["proxy_lowres", "proxy_highres", "watermarked", "untyped"]);

/** The setup of each operation class: what an admin may configure without code. */
export const setupSchemas = {
  metadata: z.object({ on_upload: mimePrefixes.default([]) }),
  /** A document's text for search (functions/search): PDF, DOCX, ODT and plain text. */
  text: z.object({ on_upload: mimePrefixes.default([]) }),
  /** Speech to a transcript (transcoder/ops/transcribe.mjs); language empty = the recogniser detects it. */
  transcribe: z.object({
    on_upload: mimePrefixes.default([]),
    language: z
      .string()
      .regex(/^[a-z]{2,3}$/, "код языка, например ru")
      .optional(),
    max_piece_seconds: z.number().min(10).max(600).optional(),
  }),
  preview: z.object({
    on_upload: mimePrefixes.default([]),
    width: size(4096).default(640),
    height: size(4096).default(360),
    quality: int(1, 100).default(80),
  }),
  proxy: z.object({
    on_upload: mimePrefixes.default([]),
    variant_type: variantType.default("untyped"),
    height: size(4320),
    video_bitrate: bitrate,
    audio_bitrate: bitrate.default("128k"),
    codec: z.enum(["h264", "hevc"]).default("h264"),
    preset: z.enum(["ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow"]).default("veryfast"),
  }),
  audio_proxy: z.object({
    on_upload: mimePrefixes.default([]),
    variant_type: variantType.default("proxy_lowres"),
    audio_bitrate: bitrate.default("128k"),
  }),
  /** A PDF's pages as pictures in a new PDF (transcoder/ops/pdf.mjs): what is shown to whoever may not download the original. */
  document_proxy: z.object({
    on_upload: mimePrefixes.default([]),
    variant_type: variantType.default("proxy_lowres"),
    width: size(4096).default(1240),
    quality: int(1, 100).default(75),
    max_pages: int(1, 1000).default(300),
  }),
  watermark: z
    .object({
      on_upload: mimePrefixes.default([]),
      variant_type: variantType.default("watermarked"),
      text: z.string().trim().min(1).max(200).optional(),
      /** An image asset whose latest original is overlaid (PNG with alpha works best). */
      image_asset_id: uuid.optional(),
      position: z.enum(["top-left", "top-right", "bottom-left", "bottom-right", "center"]).default("bottom-right"),
      opacity: z.coerce.number().min(0.05, "не меньше 0.05").max(1, "не больше 1").default(0.5),
      height: size(4320).default(720),
      video_bitrate: bitrate.default("3M"),
    })
    .refine((s) => !!s.text !== !!s.image_asset_id, { message: "нужен ровно один из text или image_asset_id", path: ["text"] }),
} as const;

export type SetupOf<C extends keyof typeof setupSchemas> = z.infer<(typeof setupSchemas)[C]>;

const templateCommon = { name: z.string().trim().min(1, "не может быть пустым").max(200), disabled: z.boolean().default(false) };
export const templateCreateBody = z
  .discriminatedUnion(
    "operation_class",
    operationClasses.map((c) => z.object({ ...templateCommon, operation_class: z.literal(c), setup: setupSchemas[c] })) as never,
  )
  .openapi("TaskTemplateCreate") as unknown as z.ZodType<{
  name: string;
  disabled: boolean;
  operation_class: (typeof operationClasses)[number];
  setup: Record<string, unknown>;
}>;
export const templatePatchBody = z
  .object({ name: templateCommon.name.optional(), disabled: z.boolean().optional(), setup: z.record(z.string(), z.unknown()).optional() })
  .openapi("TaskTemplatePatch");

export const taskOut = z
  .object({
    job_id: z.string(),
    job_num: z.number(),
    template_id: z.string(),
    template: z.string(),
    operation_class: z.string(),
    owner: z.string().nullable(),
    owner_name: z.string().nullable(),
    affected: z.array(z.string()),
    src_entity: z.string(),
    dst_entity: z.string().nullable(),
    asset_id: z.string(),
    asset_name: z.string().nullable(),
    version: z.number(),
    worker_info: z.string().nullable(),
    schedule_time: z.number(),
    start_time: z.number().nullable(),
    stop_time: z.number().nullable(),
    progress: z.number(),
    progress_info: z.string(),
    status: z.enum(taskStatuses),
    priority: z.number(),
    error: z.string().nullable(),
  })
  .openapi("Task");
export type TaskOut = z.infer<typeof taskOut>;
export const templateOut = z
  .object({
    id: z.string(),
    name: z.string(),
    operation_class: z.string(),
    setup: z.record(z.string(), z.unknown()),
    owner: z.string().nullable(),
    disabled: z.boolean(),
  })
  .openapi("TaskTemplate");
export const logLine = z
  .object({ seq: z.number(), ts: z.number(), level: z.string(), line: z.string(), run: z.number() })
  .openapi("TaskLogLine");
export const taskCountOut = z.object({ count: z.number() });
export const taskNamesOut = z.array(z.object({ template_id: z.string(), name: z.string(), count: z.number() }));
export const taskResultOut = z.object({
  job_id: z.string(),
  status: z.string(),
  result: z.record(z.string(), z.unknown()).nullable(),
  error: z.string().nullable(),
  dst_entity: z.string().nullable(),
});
export const taskCommandsOut = z.object({ status: z.enum(taskStatuses), commands: z.array(z.string()) });

/** Documents whose text the transcoder extracts for search (transcoder/ops/text.mjs reads these). */
export const textMimes = [
  "text/",
  "application/pdf",
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  "application/vnd.oasis.opendocument.text",
];

/** Which files a class can work on (available-tasks, enqueue-task); metadata reads anything ffprobe or sharp can. */
export function appliesTo(cls: (typeof operationClasses)[number], mime: string): boolean {
  const m = mime.toLowerCase();
  const video = m.startsWith("video/");
  const image = m.startsWith("image/");
  switch (cls) {
    case "metadata":
      // Any file: the transcoder hashes every original (decision 058); media and PDF get technical fields too.
      return true;
    case "preview":
      return video || image || m.startsWith("audio/") || m === "application/pdf";
    case "watermark":
      return video || image;
    case "document_proxy":
      return m === "application/pdf";
    case "proxy":
      return video;
    case "audio_proxy":
    case "transcribe":
      return video || m.startsWith("audio/");
    case "text":
      return textMimes.some((t) => m.startsWith(t));
  }
}
