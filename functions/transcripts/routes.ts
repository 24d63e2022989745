import { readBoundedText } from "../lib/bodies";
import { getDb } from "../lib/db";
import { ApiError } from "../lib/errors";
import { createApp } from "../lib/openapi";
import { contentDisposition } from "../../shared/lib/served-bytes";
import * as r from "../../shared/transcripts/contract";
import { MAX_SUBTITLE_BYTES, subtitleTypes } from "../../shared/transcripts/schemas";
import { copyTranscript, editTranscript, exportTranscript, getTranscript, importTranscript } from "./service";
import { openTrack, trackLink } from "./track";

/** /api/transcripts: time-coded text of asset versions (docs/decisions/059-transcripts.md); routes in ./contract.ts. */
const app = createApp();
app.openapi(r.importTranscript, async (c) => {
  const type = (c.req.header("Content-Type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (!subtitleTypes.includes(type))
    throw new ApiError("validation", "Тело — файл SRT или WebVTT", [
      { field: "Content-Type", message: `одно из: ${subtitleTypes.join(", ")}` },
    ]);
  const body = await readBoundedText(c.req.raw, MAX_SUBTITLE_BYTES);
  const { asset_id } = c.req.valid("param");
  return c.json(await importTranscript(getDb(c.env), c.get("auth"), asset_id, c.req.valid("query"), body), 200);
});

app.openapi(r.exportTranscript, async (c) => {
  const { version, format } = c.req.valid("query");
  const file = await exportTranscript(getDb(c.env), c.get("auth"), c.req.valid("param").asset_id, version, format);
  return c.body(file.body, 200, { "Content-Type": file.type, "Content-Disposition": contentDisposition("attachment", file.filename) });
});

app.openapi(r.getTranscript, async (c) =>
  c.json(await getTranscript(getDb(c.env), c.get("auth"), c.req.valid("param").asset_id, c.req.valid("query").version), 200),
);

app.openapi(r.editTranscript, async (c) =>
  c.json(
    await editTranscript(getDb(c.env), c.get("auth"), c.req.valid("param").asset_id, c.req.valid("query").version, c.req.valid("json")),
    200,
  ),
);

app.openapi(r.trackLink, async (c) =>
  c.json(await trackLink(getDb(c.env), c.env, c.get("auth"), c.req.url, c.req.valid("param").asset_id, c.req.valid("query").version), 200),
);

app.openapi(r.openTrack, async (c) => {
  const file = await openTrack(getDb(c.env), c.env, c.req.valid("param").asset_id, c.req.valid("query"));
  // The cues are the user's text: nothing in them may run or load if the link is opened as a page.
  return c.body(file.body, 200, { "Content-Type": file.type, "Content-Security-Policy": "default-src 'none'; sandbox" });
});

app.openapi(r.copyTranscript, async (c) =>
  c.json(await copyTranscript(getDb(c.env), c.get("auth"), c.req.valid("param").asset_id, c.req.valid("query")), 200),
);

export default app;
