import { createRoute, z } from "@hono/zod-openapi";
import { readBoundedText } from "../lib/bodies";
import { getDb } from "../lib/db";
import { ApiError } from "../lib/errors";
import { errorResponse, errorAnswers, createApp, jsonBody, jsonContent } from "../lib/openapi";
import { contentDisposition } from "../lib/served-bytes";
import {
  assetParam,
  copyQuery,
  exportQuery,
  importQuery,
  MAX_SUBTITLE_BYTES,
  segmentsOut,
  transcriptOut,
  trackOut,
  trackQuery,
  transcriptPatch,
  versionQuery,
} from "./schemas";
import { copyTranscript, editTranscript, exportTranscript, getTranscript, importTranscript } from "./service";
import { openTrack, trackLink } from "./track";

/** /api/transcripts: time-coded text of asset versions (docs/decisions/059-transcripts.md). */
const app = createApp();
const tags = ["transcripts"];
const errors = errorAnswers({ 403: "Lacks update on the asset", 404: "Not found, not readable, or the version has no transcript" });

/** The body types an SRT or WebVTT file arrives as (browsers send .srt as text/plain or nothing at all). */
const subtitleTypes = ["text/plain", "application/x-subrip", "text/vtt", "text/srt"];

app.openapi(
  createRoute({
    method: "post",
    path: "/{asset_id}/import",
    tags,
    summary: "Import an SRT or WebVTT file as the version's transcript (update on the asset); a malformed file answers 400 naming the line",
    request: {
      params: assetParam,
      query: importQuery,
      body: {
        required: true,
        content: Object.fromEntries(subtitleTypes.map((t) => [t, { schema: z.string() }])),
      },
    },
    responses: { 200: jsonContent(segmentsOut), ...errors },
  }),
  async (c) => {
    const type = (c.req.header("Content-Type") ?? "").split(";")[0]!.trim().toLowerCase();
    if (!subtitleTypes.includes(type))
      throw new ApiError("validation", "Тело — файл SRT или WebVTT", [
        { field: "Content-Type", message: `одно из: ${subtitleTypes.join(", ")}` },
      ]);
    const body = await readBoundedText(c.req.raw, MAX_SUBTITLE_BYTES);
    const { asset_id } = c.req.valid("param");
    return c.json(await importTranscript(getDb(c.env), c.get("auth"), asset_id, c.req.valid("query"), body), 200);
  },
);

app.openapi(
  createRoute({
    method: "get",
    path: "/{asset_id}/export",
    tags,
    summary: "The version's transcript as an SRT, WebVTT or plain-text file (UTF-8, no byte order mark)",
    request: { params: assetParam, query: exportQuery },
    responses: {
      200: {
        description: "The file",
        content: {
          "application/x-subrip": { schema: z.string() },
          "text/vtt": { schema: z.string() },
          "text/plain": { schema: z.string() },
        },
      },
      ...errors,
    },
  }),
  async (c) => {
    const { version, format } = c.req.valid("query");
    const file = await exportTranscript(getDb(c.env), c.get("auth"), c.req.valid("param").asset_id, version, format);
    return c.body(file.body, 200, { "Content-Type": file.type, "Content-Disposition": contentDisposition("attachment", file.filename) });
  },
);

app.openapi(
  createRoute({
    method: "get",
    path: "/{asset_id}",
    tags,
    summary: "The version's transcript: language, source and segments",
    request: { params: assetParam, query: versionQuery },
    responses: { 200: jsonContent(transcriptOut), ...errors },
  }),
  async (c) => c.json(await getTranscript(getDb(c.env), c.get("auth"), c.req.valid("param").asset_id, c.req.valid("query").version), 200),
);

app.openapi(
  createRoute({
    method: "patch",
    path: "/{asset_id}",
    tags,
    summary: "Replace the version's segments with edited ones (update on the asset); the source becomes edit",
    request: { params: assetParam, query: versionQuery, body: jsonBody(transcriptPatch) },
    responses: { 200: jsonContent(transcriptOut), ...errors },
  }),
  async (c) =>
    c.json(
      await editTranscript(getDb(c.env), c.get("auth"), c.req.valid("param").asset_id, c.req.valid("query").version, c.req.valid("json")),
      200,
    ),
);

app.openapi(
  createRoute({
    method: "post",
    path: "/{asset_id}/track",
    tags,
    summary:
      "A signed link to the version's transcript as WebVTT for a <track> (which cannot send the bearer), bound to the caller's session, valid 10 minutes",
    request: { params: assetParam, query: versionQuery },
    responses: { 200: jsonContent(trackOut), ...errors },
  }),
  async (c) =>
    c.json(
      await trackLink(getDb(c.env), c.env, c.get("auth"), c.req.url, c.req.valid("param").asset_id, c.req.valid("query").version),
      200,
    ),
);

app.openapi(
  createRoute({
    method: "get",
    path: "/{asset_id}/track",
    security: [],
    tags,
    summary: "A track link: the transcript as WebVTT, while the session that asked for it is live and reads the asset",
    request: { params: assetParam, query: trackQuery },
    responses: { 200: { description: "The WebVTT file", content: { "text/vtt": { schema: z.string() } } }, ...errors },
  }),
  async (c) => {
    const file = await openTrack(getDb(c.env), c.env, c.req.valid("param").asset_id, c.req.valid("query"));
    // The cues are the user's text: nothing in them may run or load if the link is opened as a page.
    return c.body(file.body, 200, { "Content-Type": file.type, "Content-Security-Policy": "default-src 'none'; sandbox" });
  },
);

app.openapi(
  createRoute({
    method: "post",
    path: "/{asset_id}/copy",
    tags,
    summary:
      "Copy another version's transcript (the previous one by default) onto a version without one (update on the asset); 409 when it has one",
    request: { params: assetParam, query: copyQuery },
    responses: { 200: jsonContent(transcriptOut), ...errors, 409: errorResponse("The version already has a transcript") },
  }),
  async (c) => c.json(await copyTranscript(getDb(c.env), c.get("auth"), c.req.valid("param").asset_id, c.req.valid("query")), 200),
);

export default app;
