/**
 * `npm run bench review`: the live review room (docs/decisions/061-review-and-approval.md, "Live room") on `npm start`.
 * 50 watchers (WebSocket clients, each with its own ticket) join one asset's room; each comment is POSTed and timed
 * from the POST's start until the last watcher has its `comment.created`. Then one watcher drops without a close
 * frame and comes back with a new ticket: the room goes on serving the others meanwhile and everyone after.
 *   REVIEW_WATCHERS (default 50), REVIEW_COMMENTS (default 100, after 5 warm-up ones).
 */
import WebSocket from "ws";
import { benchAdmin, benchApi, percentile, startServer } from "./server.mjs";

const watchers = Number(process.env.REVIEW_WATCHERS ?? 50);
const comments = Number(process.env.REVIEW_COMMENTS ?? 100);
const ms = (v) => `${v.toFixed(1)} ms`;

const server = await startServer();
try {
  const { post } = benchApi(server.url);
  const bearer = (await post("/api/auth/login", null, benchAdmin)).bearer;
  // A small text file: a version to comment on, with no transcoding to compete with the room for the CPU.
  const { asset_id } = await post("/api/asset/create", bearer, { asset_name: "Ревью.txt", asset_mime: "text/plain" });
  const data = new TextEncoder().encode("текст для ревью\n");
  const up = await post("/api/ul/start", bearer, { asset_id, size: data.length, name: "Ревью.txt", mime: "text/plain" });
  const [target] = await post(`/api/ul/${up.upload_id}/targets`, bearer, { parts: [1] });
  const put = await fetch(new URL(target.url, server.url), { method: "PUT", body: data });
  await post(`/api/ul/${up.upload_id}/parts/1`, bearer, { etag: put.headers.get("ETag") });
  await post(`/api/ul/${up.upload_id}/complete`, bearer, {});

  /** One watcher: its socket, the arrival time of each comment (by its text), the last presence it heard. */
  const join = async () => {
    const { ticket } = await post(`/api/review/live-ticket/${asset_id}`, bearer, {});
    const ws = new WebSocket(`${server.url.replace("http", "ws")}/api/review/live/${asset_id}?ticket=${encodeURIComponent(ticket)}`);
    const w = { ws, arrived: new Map(), present: -1 };
    ws.on("message", (raw) => {
      const m = JSON.parse(String(raw));
      if (m.type === "comment.created") w.arrived.set(m.comment.body, performance.now());
      if (m.type === "presence") w.present = m.watchers.length;
    });
    await new Promise((resolve, reject) => {
      ws.once("open", resolve);
      ws.once("unexpected-response", (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
      ws.once("error", reject);
    });
    return w;
  };
  const until = async (what, probe, timeout = 30_000) => {
    const end = Date.now() + timeout;
    while (!probe()) {
      if (Date.now() > end) throw new Error(`timed out: ${what}`);
      await new Promise((r) => setTimeout(r, 5));
    }
  };

  let t = performance.now();
  const room = [];
  for (let i = 0; i < watchers; i++) room.push(await join());
  await until("everyone's presence", () => room.every((w) => w.present === watchers));
  console.log(`${watchers} watchers joined one room in ${ms(performance.now() - t)} (ticket + upgrade each, one after another)`);

  let n = 0;
  /** POSTs a comment; answers ms until every one of `of` has it, and the POST's own time. */
  const comment = async (of) => {
    const body = `замечание ${++n}`;
    const start = performance.now();
    await post("/api/review/comments", bearer, { asset_id, body, at: { frame: n, fps_num: 25, fps_den: 1 } });
    const answered = performance.now() - start;
    await until(`«${body}» at every watcher`, () => of.every((w) => w.arrived.has(body)), 10_000);
    return { all: Math.max(...of.map((w) => w.arrived.get(body))) - start, answered };
  };
  for (let i = 0; i < 5; i++) await comment(room);
  const all = [];
  const answered = [];
  for (let i = 0; i < comments; i++) {
    const r = await comment(room);
    all.push(r.all);
    answered.push(r.answered);
  }
  console.log(
    `comment POST → at all ${watchers} watchers (${comments} comments): p50 ${ms(percentile(all, 50))}  p95 ${ms(percentile(all, 95))}  max ${ms(Math.max(...all))}`,
  );
  console.log(`  the POST's answer alone:                  p50 ${ms(percentile(answered, 50))}  p95 ${ms(percentile(answered, 95))}`);

  // One watcher drops without a close frame (a lost network), the room notices, serves the rest; it comes back.
  const lost = /** @type {(typeof room)[number]} */ (room.shift());
  lost.ws.terminate();
  await until("presence without the lost watcher", () => room.every((w) => w.present === watchers - 1));
  const meanwhile = await comment(room);
  t = performance.now();
  const back = await join();
  room.push(back);
  await until("presence with the watcher back", () => room.every((w) => w.present === watchers));
  const rejoinMs = performance.now() - t;
  const after = await comment(room);
  console.log(
    `a watcher dropped: the other ${watchers - 1} had the next comment in ${ms(meanwhile.all)}; it rejoined in ${ms(rejoinMs)} and all ${watchers} had the next in ${ms(after.all)}`,
  );
  for (const w of room) w.ws.close();
} finally {
  await server.stop();
}
