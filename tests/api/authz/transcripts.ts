import { call } from "../fixtures";
import { randomBytes, uploadFile } from "../uploads.helpers";
import { sharedAsset, target } from "./asset-world";
import { onShared, open, type PersonaName, type RouteCase, type World } from "./types";

/**
 * /api/transcripts: read on the asset to read or export a transcript, update to import or edit one
 * (readers get 403 on S, those who cannot read S 404).
 */

export const srtBody = "1\n00:00:01,000 --> 00:00:02,500\nРасшифровка\n";

const transcribed = new WeakMap<World, Promise<void>>();
/** The shared asset with a transcript (imported once per world by the admin). */
function sharedTranscript(w: World) {
  let t = transcribed.get(w);
  if (!t)
    transcribed.set(
      w,
      (t = (async () => {
        const a = await sharedAsset(w);
        const r = await call(`/api/transcripts/${a.id}/import`, {
          method: "POST",
          body: srtBody,
          headers: { "Content-Type": "application/x-subrip" },
          bearer: w.adminBearer,
        });
        if (r.status !== 200) throw new Error(`transcript import failed: ${r.text}`);
      })()),
    );
  return t;
}

/**
 * The asset «Перенести расшифровку» acts on: for editors and admins a fresh one whose version 1 has a transcript
 * and whose version 2 has none; for everyone else the shared one (refused before anything changes).
 */
async function copyTarget(w: World, as: PersonaName) {
  const a = await target(w, as, ["editor", "admin"], true);
  if (as !== "editor" && as !== "admin") return a;
  const imported = await call(`/api/transcripts/${a.id}/import`, {
    method: "POST",
    body: srtBody,
    headers: { "Content-Type": "application/x-subrip" },
    bearer: w.adminBearer,
  });
  if (imported.status !== 200) throw new Error(`transcript import failed: ${imported.text}`);
  await uploadFile(w.adminBearer, a.id, randomBytes(64, 2), { mime: "application/pdf", name: "doc.pdf" });
  return a;
}

export const transcriptCases: RouteCase[] = [
  {
    route: "POST /api/transcripts/:asset_id/track",
    request: async (w) => {
      await sharedTranscript(w);
      const a = await sharedAsset(w);
      return { method: "POST", path: `/api/transcripts/${a.id}/track`, secrets: [a.name, a.id] };
    },
    expect: onShared(200, 200),
  },
  {
    // A track link: its signature and the live session it was made for are the authorization (a <track> sends no headers).
    route: "GET /api/transcripts/:asset_id/track",
    request: async (w) => {
      await sharedTranscript(w);
      const a = await sharedAsset(w);
      const made = await call(`/api/transcripts/${a.id}/track`, { method: "POST", bearer: w.adminBearer });
      if (made.status !== 200) throw new Error(`track link failed: ${made.text}`);
      const url = new URL(made.body.link as string);
      return { path: `${url.pathname}${url.search}` };
    },
    expect: open(200),
  },
  {
    route: "POST /api/transcripts/:asset_id/copy",
    request: async (w, as) => {
      const a = await copyTarget(w, as);
      return { method: "POST", path: `/api/transcripts/${a.id}/copy`, secrets: a.secrets };
    },
    expect: onShared(403, 200),
  },
  {
    route: "GET /api/transcripts/:asset_id",
    request: async (w) => {
      await sharedTranscript(w);
      const a = await sharedAsset(w);
      return { path: `/api/transcripts/${a.id}`, secrets: [a.name, a.id] };
    },
    expect: onShared(200, 200),
  },
  {
    route: "GET /api/transcripts/:asset_id/export",
    request: async (w) => {
      await sharedTranscript(w);
      const a = await sharedAsset(w);
      return { path: `/api/transcripts/${a.id}/export?format=vtt`, secrets: [a.name, a.id] };
    },
    expect: onShared(200, 200),
  },
  {
    route: "POST /api/transcripts/:asset_id/import",
    request: async (w, as) => {
      const a = await target(w, as, ["editor", "admin"], true);
      return {
        method: "POST",
        path: `/api/transcripts/${a.id}/import`,
        body: srtBody,
        headers: { "Content-Type": "application/x-subrip" },
        secrets: a.secrets,
      };
    },
    expect: onShared(403, 200),
  },
  {
    // The test Worker has no recogniser: those who may start it learn it is not configured (503).
    route: "POST /api/transcripts/:asset_id/recognize",
    request: async (w, as) => {
      const a = await target(w, as, ["editor", "admin"], true);
      return { method: "POST", path: `/api/transcripts/${a.id}/recognize`, json: { language: "ru" }, secrets: a.secrets };
    },
    expect: onShared(403, 503, 503),
  },
  {
    route: "PATCH /api/transcripts/:asset_id",
    request: async (w, as) => {
      const a = await target(w, as, ["editor", "admin"], true);
      return {
        method: "PATCH",
        path: `/api/transcripts/${a.id}`,
        json: { language: "ru", segments: [{ start: 0, end: 1, text: "правка" }] },
        secrets: a.secrets,
      };
    },
    expect: onShared(403, 200),
  },
];
