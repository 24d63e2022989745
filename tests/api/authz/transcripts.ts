import { call } from "../fixtures";
import { sharedAsset, target } from "./asset-world";
import { onShared, type RouteCase, type World } from "./types";

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

export const transcriptCases: RouteCase[] = [
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
