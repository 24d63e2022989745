import { z } from "@hono/zod-openapi";
import { defineRoute, errorAnswers, errorResponse, jsonBody, jsonContent, routeDefiner } from "../lib/route-contract";
import * as s from "./schemas";

/**
 * /api/transcripts, served by ./routes.ts (starting a recognition by functions/tasks/recognize-routes.ts) and called
 * by the viewer through call() (docs/decisions/070-route-contracts.md): time-coded text of asset versions
 * (docs/decisions/059-transcripts.md).
 */
const tags = ["transcripts"];
const errors = errorAnswers({ 403: "Lacks update on the asset", 404: "Not found, not readable, or the version has no transcript" });
const route = routeDefiner(tags, errors);

export const importTranscript = route(
  "post",
  "/transcripts/{asset_id}/import",
  "Import an SRT or WebVTT file as the version's transcript (update on the asset); a malformed file answers 400 naming the line",
  {
    params: s.assetParam,
    query: s.importQuery,
    body: { required: true, content: Object.fromEntries(s.subtitleTypes.map((t) => [t, { schema: z.string() }])) },
  },
  s.segmentsOut,
);
export const exportTranscript = defineRoute({
  method: "get",
  path: "/transcripts/{asset_id}/export",
  tags,
  summary: "The version's transcript as an SRT, WebVTT or plain-text file (UTF-8, no byte order mark)",
  request: { params: s.assetParam, query: s.exportQuery },
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
});
export const getTranscript = route(
  "get",
  "/transcripts/{asset_id}",
  "The version's transcript: language, source and segments",
  { params: s.assetParam, query: s.versionQuery },
  s.transcriptOut,
);
export const editTranscript = route(
  "patch",
  "/transcripts/{asset_id}",
  "Replace the version's segments with edited ones (update on the asset); the source becomes edit",
  { params: s.assetParam, query: s.versionQuery, body: jsonBody(s.transcriptPatch) },
  s.transcriptOut,
);
export const trackLink = route(
  "post",
  "/transcripts/{asset_id}/track",
  "A signed link to the version's transcript as WebVTT for a <track> (which cannot send the bearer), bound to the caller's session, valid 10 minutes",
  { params: s.assetParam, query: s.versionQuery },
  s.trackOut,
);
export const openTrack = defineRoute({
  method: "get",
  path: "/transcripts/{asset_id}/track",
  security: [],
  tags,
  summary: "A track link: the transcript as WebVTT, while the session that asked for it is live and reads the asset",
  request: { params: s.assetParam, query: s.trackQuery },
  responses: { 200: { description: "The WebVTT file", content: { "text/vtt": { schema: z.string() } } }, ...errors },
});
export const copyTranscript = defineRoute({
  method: "post",
  path: "/transcripts/{asset_id}/copy",
  tags,
  summary:
    "Copy another version's transcript (the previous one by default) onto a version without one (update on the asset); 409 when it has one",
  request: { params: s.assetParam, query: s.copyQuery },
  responses: { 200: jsonContent(s.transcriptOut), ...errors, 409: errorResponse("The version already has a transcript") },
});
export const recognize = defineRoute({
  method: "post",
  path: "/transcripts/{asset_id}/recognize",
  tags,
  summary: "Start the task «Расшифровка» on a version (update on the asset); 503 when no recogniser is configured",
  request: { params: s.assetParam, body: jsonBody(s.recognizeBody) },
  responses: { 200: jsonContent(s.recognizeOut), ...errors, 503: errorResponse("No recogniser configured") },
});
