import { describe, expect, it } from "vitest";
import { parseCsv } from "../../functions/lib/csv";
import { parseVtt } from "../../functions/transcripts/subtitles";
import { api } from "./helpers";
import { comment, fieldsOf, reviewWorld, setProxyRate } from "./review.helpers";
import { call } from "./fixtures";

/** /api/review/export (docs/decisions/061-review-and-approval.md): CSV, CMX3600 EDL and WebVTT, parsed back. */

async function exported(assetId: string, bearer: string, query: string) {
  const res = await api(`/api/review/export/${assetId}?${query}`, { bearer });
  const text = await res.text();
  expect(res.status, text).toBe(200);
  return { text, type: res.headers.get("Content-Type"), disposition: res.headers.get("Content-Disposition") };
}

/** The events of a CMX3600 list: number, source in/out, record in/out, and the marker line after each. */
function parseEdl(text: string) {
  const lines = text.split(/\r\n/);
  const events = [];
  for (let i = 0; i < lines.length; i++) {
    const m = /^(\d{3})\s+AX\s+V\s+C\s+(\S+) (\S+) (\S+) (\S+)$/.exec(lines[i]);
    if (m) events.push({ num: m[1], srcIn: m[2], srcOut: m[3], recIn: m[4], recOut: m[5], marker: lines[i + 1] });
  }
  return { title: lines[0], fcm: lines[1], events };
}

describe("review export", () => {
  it("CSV lists every comment with its timecode at the proxy's rate and reads back exactly", async () => {
    const w = await reviewWorld();
    await setProxyRate(w.id, 1, "30000/1001");
    const first = await comment(w.reader.bearer, {
      asset_id: w.id,
      body: '=SUM(A1) формула, "кавычки"',
      at: { frame: 1800, fps_num: 30000, fps_den: 1001 },
    });
    const reply = await comment(w.editor.bearer, { asset_id: w.id, body: "ответ\nв две строки", parent_id: first });
    await call(`/api/review/comments/${first}`, { method: "PATCH", json: { resolved: true }, bearer: w.editor.bearer });
    const f = await exported(w.id, w.reader.bearer, "format=csv");
    expect(f.type).toBe("text/csv; charset=utf-8");
    expect(f.disposition).toContain(".csv");
    const [head, ...rows] = parseCsv(f.text);
    expect(head.slice(0, 5)).toEqual(["comment_id", "parent_id", "version", "timecode", "frame"]);
    const row = (id: string) => Object.fromEntries(head.map((h, i) => [h, rows.find((r) => r[0] === id)![i]]));
    expect(row(first)).toMatchObject({
      timecode: "00:01:00:00",
      frame: "1800",
      fps: "30000/1001",
      seconds: "60.06",
      body: '=SUM(A1) формула, "кавычки"',
      resolved: "yes",
    });
    expect(row(reply)).toMatchObject({ parent_id: first, timecode: "", body: "ответ\nв две строки", resolved: "no" });
  });

  it("EDL: markers at the proxy's 29.97 in non-drop-frame, drop-frame when asked", async () => {
    const w = await reviewWorld();
    await setProxyRate(w.id, 1, "30000/1001");
    await comment(w.reader.bearer, { asset_id: w.id, body: "первый | с чертой", at: { frame: 1800, fps_num: 30000, fps_den: 1001 } });
    // Given at 25 fps (made before the proxy): 50 frames = 2 s = frame 60 at 29.97 (59.94 rounds to 60).
    await comment(w.reader.bearer, {
      asset_id: w.id,
      body: "второй",
      at: { frame: 50, fps_num: 25, fps_den: 1 },
      until: { frame: 75, fps_num: 25, fps_den: 1 },
    });
    await comment(w.reader.bearer, { asset_id: w.id, body: "без времени" });
    const ndf = parseEdl((await exported(w.id, w.reader.bearer, "format=edl")).text);
    expect(ndf.fcm).toBe("FCM: NON-DROP FRAME");
    expect(ndf.events.map((e) => [e.num, e.srcIn, e.srcOut, e.recIn, e.recOut])).toEqual([
      ["001", "00:00:02:00", "00:00:03:00", "00:00:02:00", "00:00:03:00"],
      ["002", "00:01:00:00", "00:01:00:01", "00:01:00:00", "00:01:00:01"],
    ]);
    expect(ndf.events[1].marker).toMatch(/^ \|C:ResolveColorBlue \|M:.+: первый \/ с чертой \|D:1$/);
    expect(ndf.events[0].marker).toMatch(/\|D:30$/);
    const df = parseEdl((await exported(w.id, w.reader.bearer, "format=edl&drop_frame=true")).text);
    expect(df.fcm).toBe("FCM: DROP FRAME");
    // Frame 1800 at 29.97 drop-frame: numbers ;00 and ;01 of minute one are skipped.
    expect(df.events[1].recIn).toBe("00:01:00;02");
  });

  it("EDL without a proxy counts at the comments' own rate; drop-frame is not used at 25", async () => {
    const w = await reviewWorld();
    await comment(w.reader.bearer, { asset_id: w.id, body: "кадр", at: { frame: 87, fps_num: 25, fps_den: 1 } });
    const edl = parseEdl((await exported(w.id, w.reader.bearer, "format=edl&drop_frame=true")).text);
    expect(edl.fcm).toBe("FCM: NON-DROP FRAME");
    expect(edl.events.map((e) => [e.recIn, e.recOut])).toEqual([["00:00:03:12", "00:00:03:13"]]);
  });

  it("WebVTT has a cue per timed comment at its exact time, markup escaped", async () => {
    const w = await reviewWorld();
    await setProxyRate(w.id, 1, "30000/1001");
    const a = await comment(w.reader.bearer, {
      asset_id: w.id,
      body: "<b>жирно</b> & -->\n\nдальше",
      at: { frame: 1800, fps_num: 30000, fps_den: 1001 },
    });
    const b = await comment(w.reader.bearer, {
      asset_id: w.id,
      body: "диапазон",
      at: { frame: 30, fps_num: 30000, fps_den: 1001 },
      until: { frame: 90, fps_num: 30000, fps_den: 1001 },
    });
    const f = await exported(w.id, w.reader.bearer, "format=vtt");
    expect(f.type).toBe("text/vtt; charset=utf-8");
    const cues = await parseVtt(f.text);
    expect(cues.map((c) => [c.id, c.start, c.end])).toEqual([
      [b, 1.001, 3.003],
      [a, 60.06, 63.06],
    ]);
    expect(cues[1].text).toBe("&lt;b&gt;жирно&lt;/b&gt; &amp; --&gt;\nдальше");
    expect(cues[1].speaker).toBeTruthy();
  });

  it("needs read on the asset and a known format", async () => {
    const w = await reviewWorld();
    expect((await api(`/api/review/export/${w.id}?format=csv`, { bearer: w.outsider.bearer })).status).toBe(404);
    expect(fieldsOf(await call(`/api/review/export/${w.id}?format=xml`, { bearer: w.reader.bearer }))).toEqual(["format"]);
  });
});
