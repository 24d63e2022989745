/**
 * What error reports must never carry (docs/decisions/044-metrics-logs-errors.md): tokens (bearers, robot tokens,
 * JWTs, signed-URL signatures), passwords, share-link ids (the id is the link's secret: /sl/<id>, /api/sl/<id>/…),
 * users' file names, and the Authorization and Cookie headers. Used as Sentry's beforeSend and beforeBreadcrumb by
 * the Worker and the browser alike, so it has no imports and works on plain JSON-like values.
 */

export const FILTERED = "[Filtered]";

/** Keys whose value is a secret whatever it looks like. */
const secretKey = /authorization|cookie|token|passw|secret|api[-_]?key|signature|^sig$|credential|^session|^code$|^state$/i;
/** Keys whose value is a user's file or asset name. */
const fileKey = /^(file_?name|filename|original_?name|asset_?name|object_?key)$/i;
/** A stack frame's own fields: code locations, not user data. */
const frameKeys = new Set(["filename", "abs_path", "module", "function", "lineno", "colno", "in_app", "instruction_addr"]);

// Extensions of files users store (media, documents, archives); code files (.js, .ts, .map) stay readable in stacks
// (hence no bare .ts for MPEG transport streams: .m2ts and .mts are there).
const fileExt =
  "mp4|m4v|mov|mxf|avi|mkv|webm|wmv|flv|mpg|mpeg|m2ts|mts|3gp|r3d|braw|jpg|jpeg|png|gif|tif|tiff|bmp|heic|heif|webp|avif|svg|psd|ai|eps|raw|cr2|cr3|nef|arw|dng|exr|dpx|mp3|wav|aac|flac|m4a|ogg|opus|aiff|wma|pdf|doc|docx|xls|xlsx|ppt|pptx|odt|ods|rtf|txt|csv|zip|rar|7z|tar|gz|srt|vtt|ass|indd|prproj|aep|fcpxml|edl|xml|json";
// A name may hold spaces ("clip final v2.mov"): up to five words before the extension go with it.
const word = `[^\\s/\\\\"'«»<>|?*:()[\\],;]+`;
const fileName = new RegExp(`(?:${word} ){0,5}${word}\\.(?:${fileExt})\\b`, "giu");

const rules: [RegExp, string][] = [
  [/\b(Bearer|Basic)\s+[^\s"',;]+/gi, `$1 ${FILTERED}`],
  [/\bmam_[A-Za-z0-9_-]+/g, `mam_${FILTERED}`],
  [/\beyJ[\w-]+\.[\w-]+\.[\w-]*/g, FILTERED],
  // Share-link ids in paths and whole URLs.
  [/(\/sl\/)[^/?#\s"']+/g, "$1[id]"],
  // A query string may hold a signature, a token or a name: none is kept.
  [/\?[^\s#"']+/g, `?${FILTERED}`],
  [/\b(password|passwd|token|secret)(\s*[=:]\s*)[^\s&,;"']+/gi, `$1$2${FILTERED}`],
  // Names the API quotes in its messages («clip.mp4», «Отпуск»).
  [/«[^»]*»/g, `«${FILTERED}»`],
  [fileName, "[file]"],
  [/[\w.+-]+@[\w-]+\.[\w.-]+/g, "[email]"],
];

export function scrubString(s: string): string {
  return rules.reduce((out, [re, to]) => out.replace(re, to), s);
}

function scrubValue(value: unknown, key: string | null, inFrame: boolean, depth: number): unknown {
  if (key !== null && inFrame && frameKeys.has(key)) return value;
  if (key !== null && (secretKey.test(key) || fileKey.test(key))) return value === null || value === undefined ? value : FILTERED;
  if (typeof value === "string") return scrubString(value);
  if (depth > 12 || value === null || typeof value !== "object") return value;
  const within = inFrame || key === "frames";
  if (Array.isArray(value)) return value.map((v) => scrubValue(v, null, within, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = scrubValue(v, k, within, depth + 1);
  return out;
}

interface Scrubbable {
  request?: { headers?: Record<string, string>; cookies?: unknown; query_string?: unknown; data?: unknown; url?: string };
  user?: { id?: string | number } & Record<string, unknown>;
}

/** A copy of the event with every secret, share-link id and file name taken out; the user keeps only their id. */
export function scrubEvent<T extends object>(event: T): T {
  const out = scrubValue(event, null, false, 0) as Scrubbable;
  if (out.request) {
    const { cookies: _c, query_string: _q, data: _d, headers, ...request } = out.request;
    // Authorization, Cookie and the like leave the report altogether, not just their values.
    const kept = headers && Object.fromEntries(Object.entries(headers).filter(([name]) => !secretKey.test(name)));
    out.request = kept ? { ...request, headers: kept } : request;
  }
  if (out.user) out.user = out.user.id === undefined ? {} : { id: out.user.id };
  return out as T;
}

/** Breadcrumbs (fetches, navigations, console lines) go through the same rules. */
export const scrubBreadcrumb = <T extends object>(crumb: T): T => scrubValue(crumb, null, false, 0) as T;
