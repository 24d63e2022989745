import { inArray } from "drizzle-orm";
import { taskTemplates, type OperationClass } from "../../db/schema";
import { nowSeconds } from "../../db/schema/columns";
import type { Db } from "../lib/db";
import { previewConfig } from "../assets/extra";
import { textMimes } from "../../shared/tasks/schemas";

/**
 * The default templates, seeded in code on first use rather than in the migration (decision 011):
 * fixed ids, INSERT … ON CONFLICT DO NOTHING, so an admin's edits (or disabling one) survive and a
 * database restored without them heals itself. Templates are never hard-deleted, only disabled.
 */
const av = ["video/", "audio/"];
export const TRANSCRIBE_TEMPLATE_ID = "00000000-0000-4000-8000-000000000008";
export const defaultTemplates: { id: string; name: string; cls: OperationClass; setup: Record<string, unknown> }[] = [
  {
    id: "00000000-0000-4000-8000-000000000001",
    name: "Технические метаданные",
    cls: "metadata",
    // Every type: the task is where an original's SHA-256 comes from (duplicates, decision 058).
    setup: { on_upload: [...av, "image/", "application/", "text/", "font/", "model/"] },
  },
  {
    id: "00000000-0000-4000-8000-000000000002",
    name: "Превью",
    cls: "preview",
    // A PDF's preview is its first page (transcoder/ops/pdf.mjs), a sound's its waveform; migration 0036 adds both types
    // to this template where it was seeded before.
    setup: { on_upload: ["video/", "image/", "audio/", "application/pdf"], ...previewConfig },
  },
  {
    id: "00000000-0000-4000-8000-000000000003",
    name: "Прокси 360p",
    cls: "proxy",
    setup: {
      on_upload: ["video/"],
      variant_type: "proxy_lowres",
      height: 360,
      video_bitrate: "800k",
      audio_bitrate: "96k",
      codec: "h264",
      preset: "veryfast",
    },
  },
  {
    id: "00000000-0000-4000-8000-000000000004",
    name: "Прокси 720p",
    cls: "proxy",
    setup: {
      on_upload: ["video/"],
      variant_type: "proxy_highres",
      height: 720,
      video_bitrate: "3M",
      audio_bitrate: "128k",
      codec: "h264",
      preset: "veryfast",
    },
  },
  {
    id: "00000000-0000-4000-8000-000000000005",
    name: "Аудио-прокси",
    cls: "audio_proxy",
    setup: { on_upload: ["audio/"], variant_type: "proxy_lowres", audio_bitrate: "128k" },
  },
  {
    id: "00000000-0000-4000-8000-000000000006",
    name: "Водяной знак (текст)",
    cls: "watermark",
    setup: {
      on_upload: [],
      variant_type: "watermarked",
      text: "Медиа-архив",
      position: "bottom-right",
      opacity: 0.5,
      height: 720,
      video_bitrate: "3M",
    },
  },
  {
    id: "00000000-0000-4000-8000-000000000007",
    name: "Текст документа",
    cls: "text",
    setup: { on_upload: textMimes },
  },
  {
    // A PDF's pages as pictures: what a reader without the download right, or a review link's guest, is shown (decision 073).
    id: "00000000-0000-4000-8000-000000000009",
    name: "Прокси PDF",
    cls: "document_proxy",
    setup: { on_upload: ["application/pdf"], variant_type: "proxy_lowres", width: 1240, quality: 75, max_pages: 300 },
  },
  {
    // Started by POST /api/transcripts/{id}/recognize (docs/decisions/059-transcripts.md), not on upload.
    id: TRANSCRIBE_TEMPLATE_ID,
    name: "Расшифровка",
    cls: "transcribe",
    setup: { on_upload: [] },
  },
];

/** One read when all are there (the usual case); called before template reads and by the upload consumer. */
export async function ensureDefaultTemplates(db: Db) {
  const ids = defaultTemplates.map((t) => t.id);
  const present = await db.select({ id: taskTemplates.templateId }).from(taskTemplates).where(inArray(taskTemplates.templateId, ids));
  if (present.length === ids.length) return;
  const now = nowSeconds();
  await db
    .insert(taskTemplates)
    .values(
      defaultTemplates.map((t) => ({
        templateId: t.id,
        name: t.name,
        operationClass: t.cls,
        setup: t.setup,
        owner: null,
        disabled: false,
        ctime: now,
        mtime: now,
      })),
    )
    .onConflictDoNothing();
}
