import { mimeType } from "../../shared/assets/schemas";

/** Common extensions, for clients that send no Content-Type (or application/octet-stream) with a PUT. */
const byExtension: Record<string, string> = {
  txt: "text/plain",
  md: "text/markdown",
  csv: "text/csv",
  json: "application/json",
  xml: "application/xml",
  pdf: "application/pdf",
  zip: "application/zip",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  png: "image/png",
  gif: "image/gif",
  webp: "image/webp",
  tif: "image/tiff",
  tiff: "image/tiff",
  svg: "image/svg+xml",
  mp4: "video/mp4",
  mov: "video/quicktime",
  mkv: "video/x-matroska",
  webm: "video/webm",
  mp3: "audio/mpeg",
  wav: "audio/wav",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  pptx: "application/vnd.openxmlformats-officedocument.presentationml.presentation",
};

const generic = "application/octet-stream";

/** The MIME type of a PUT: the client's, else the extension's, else what the asset had, else octet-stream. */
export function mimeFor(header: string | null, name: string, previous?: string): string {
  const sent = mimeType.safeParse((header ?? "").split(";")[0]);
  if (sent.success && sent.data !== generic) return sent.data;
  const ext = name.includes(".") ? name.split(".").pop()!.toLowerCase() : "";
  return byExtension[ext] ?? previous ?? generic;
}
