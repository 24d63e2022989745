import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { signUrl } from "../../functions/lib/sign";
import { call, disable, grant } from "./fixtures";
import { reviewWorld } from "./review.helpers";

/**
 * The live room's door (docs/decisions/061-review-and-approval.md, "Live room"): a ticket needs read on the asset,
 * and the WebSocket route takes nothing but a valid, fresh ticket of that asset and a live session. The messages
 * themselves are tested over HTTP against `npm start` (tests/e2e-api/review-live.test.ts).
 */

const ticketFor = async (assetId: string, bearer: string) => {
  const r = await call(`/api/review/live-ticket/${assetId}`, { method: "POST", bearer });
  expect(r.status, r.text).toBe(200);
  return r.body as { ticket: string; expires: number };
};

const live = (assetId: string, ticket?: string, upgrade = true) =>
  SELF.fetch(`http://mam.test/api/review/live/${assetId}${ticket === undefined ? "" : `?ticket=${encodeURIComponent(ticket)}`}`, {
    headers: upgrade ? { Upgrade: "websocket" } : {},
  });

describe("live review room: tickets", () => {
  it("gives a reader a ticket of a minute; one who cannot read the asset gets 404 as for a missing one", async () => {
    const w = await reviewWorld();
    const t = await ticketFor(w.id, w.reader.bearer);
    const now = Date.now() / 1000;
    expect(t.expires).toBeGreaterThan(now + 50);
    expect(t.expires).toBeLessThanOrEqual(now + 61);
    const refused = await call(`/api/review/live-ticket/${w.id}`, { method: "POST", bearer: w.outsider.bearer });
    expect(refused.status).toBe(404);
    expect(refused.text).not.toContain(w.name);
    expect((await call(`/api/review/live-ticket/${w.id}`, { method: "POST" })).status).toBe(401);
  });

  it("refuses with 401 before the upgrade: no ticket, a forged, an expired, another asset's, an ended session's", async () => {
    const w = await reviewWorld();
    const other = await reviewWorld();
    const { ticket } = await ticketFor(w.id, w.reader.bearer);
    const [session, , sig] = [ticket.slice(0, ticket.indexOf(".")), ...ticket.slice(ticket.indexOf(".") + 1).split(".")];
    const expect401 = async (t: string | undefined, what: string) => {
      const r = await live(w.id, t);
      expect(r.status, what).toBe(401);
      expect(r.webSocket, what).toBeNull();
      await r.body?.cancel();
    };
    await expect401(undefined, "no ticket");
    await expect401("", "an empty ticket");
    await expect401(
      ticket.replace(/.$/, (c) => (c === "0" ? "1" : "0")),
      "a flipped signature",
    );
    // The expiry moved into the future under the old signature.
    const [exp] = ticket.slice(session.length + 1).split(".");
    await expect401(`${session}.${Number(exp) + 3600}.${sig}`, "a lengthened expiry");
    // Another session named under this session's signature: the signature covers the session.
    const stranger = await ticketFor(w.id, w.editor.bearer);
    await expect401(`${stranger.ticket.slice(0, stranger.ticket.indexOf("."))}.${exp}.${sig}`, "another session");
    // Correctly signed, but a minute past.
    const past = Math.floor(Date.now() / 1000) - 1;
    const expired = new URLSearchParams(await signUrl(env.JWT_SECRET, "review-live", `${w.id}:${session}`, past)).get("sig");
    await expect401(`${session}.${past}.${expired}`, "an expired ticket");
    // A valid ticket of one asset does not open another's room, even for a reader of both.
    await grant(w.reader.id, other.group, ["read"]);
    const theirs = await ticketFor(other.id, w.reader.bearer);
    await expect401(theirs.ticket, "another asset's ticket");
    // The session ends (the account is disabled): its unexpired ticket stops at once.
    const before = await live(w.id, ticket, false);
    expect(before.status).toBe(426);
    await before.body?.cancel();
    await disable(w.reader.id);
    await expect401(ticket, "the ticket of an ended session");
  });

  it("answers 426 to a valid ticket without an upgrade, and upgrades with one into the room, which tells who is there", async () => {
    const w = await reviewWorld();
    const { ticket } = await ticketFor(w.id, w.editor.bearer);
    const plain = await live(w.id, ticket, false);
    expect(plain.status).toBe(426);
    await plain.body?.cancel();
    const r = await live(w.id, ticket);
    expect(r.status).toBe(101);
    const ws = r.webSocket!;
    const first = new Promise<string>((resolve) => ws.addEventListener("message", (e) => resolve(String(e.data)), { once: true }));
    ws.accept();
    const presence = JSON.parse(await first);
    expect(presence).toMatchObject({ type: "presence", watchers: [{ user_id: w.editor.id, frame: null }] });
    ws.close(1000, "done");
  });
});
