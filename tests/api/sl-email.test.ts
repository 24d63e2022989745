import { env } from "cloudflare:test";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { events, shareLinks, users } from "../../db/schema";
import type { AuthUser, Env } from "../../functions/lib/env";
import { createLink } from "../../functions/sl/service";
import { createLinkBody } from "../../shared/sl/schemas";
import { admin, db, mkGroup, VIRTUAL_ROOT } from "./fixtures";
import { createAsset } from "./uploads.helpers";

/**
 * Share-link mail through Cloudflare's email sending binding (`EMAIL`, a send_email binding in wrangler.toml).
 * The binding cannot run locally, so these tests hand the real createLink a stand-in binding object: one that
 * accepts, one that throws like a refused send.
 */

let auth: AuthUser;
beforeAll(async () => {
  await admin();
  const u = (await db().select().from(users).where(eq(users.login, "admin")).get())!;
  auth = { userId: u.userId, userName: "Админ Тестов", login: u.login, isAdmin: true, isRobot: false, chrootGroups: [], sessionId: "test" };
});

type Sent = { from: string; to: string; subject: string; text: string };

function binding(fail: string | null) {
  const sent: Sent[] = [];
  return {
    sent,
    send: async (m: Sent) => {
      if (fail && m.to.startsWith(fail)) throw new Error("destination address not verified");
      sent.push(m);
      return { messageId: `m-${sent.length}` };
    },
  };
}

async function share(email: ReturnType<typeof binding>, to: string[]) {
  const group = await mkGroup(VIRTUAL_ROOT);
  const { asset_id } = await createAsset(await admin(), { in_group: group, asset_name: "Договор.pdf", asset_mime: "application/pdf" });
  const mailEnv = { ...(env as unknown as Env), EMAIL: email as unknown as SendEmail, EMAIL_FROM: "share@mam.example" };
  const body = createLinkBody.parse({ acl: ["view"], email: to });
  const id = await createLink(db(), mailEnv, auth, asset_id, body, "https://mam.example");
  const ev = await db()
    .select()
    .from(events)
    .where(and(eq(events.entityId, id), eq(events.kind, "share-link.email")))
    .get();
  return { id, ev };
}

describe("share-link mail through the email binding", () => {
  it("sends one message per recipient from EMAIL_FROM with the link, and records it", async () => {
    const email = binding(null);
    const { id, ev } = await share(email, ["one@example.com", "two@example.com"]);
    expect(email.sent.map((m) => m.to)).toEqual(["one@example.com", "two@example.com"]);
    for (const m of email.sent) {
      expect(m.from).toBe("share@mam.example");
      expect(m.subject).toContain("Админ Тестов");
      expect(m.subject).toContain("«Договор.pdf»");
      expect(m.text).toContain(`https://mam.example/sl/${id}`);
    }
    expect(ev?.data).toEqual({
      via: "email-binding",
      results: [
        { to: "one@example.com", ok: true },
        { to: "two@example.com", ok: true },
      ],
    });
  });

  it("a refused send still creates the link; the failure is in the event, the other recipient still gets mail", async () => {
    const email = binding("bad");
    const { id, ev } = await share(email, ["bad@example.com", "good@example.com"]);
    expect(await db().select().from(shareLinks).where(eq(shareLinks.linkId, id)).get()).toBeDefined();
    expect(email.sent.map((m) => m.to)).toEqual(["good@example.com"]);
    expect(ev?.data).toMatchObject({
      via: "email-binding",
      results: [
        { to: "bad@example.com", ok: false, error: expect.stringContaining("destination address not verified") },
        { to: "good@example.com", ok: true },
      ],
    });
  });
});

describe("share-link mail without the binding (local)", () => {
  it("prints the recipient and subject with the link masked: its id, the capability, never reaches the log", async () => {
    const printed = vi.spyOn(console, "log").mockImplementation(() => undefined);
    try {
      const group = await mkGroup(VIRTUAL_ROOT);
      const { asset_id } = await createAsset(await admin(), { in_group: group, asset_name: "Смета.pdf", asset_mime: "application/pdf" });
      const id = await createLink(
        db(),
        { ...(env as unknown as Env), EMAIL: undefined },
        auth,
        asset_id,
        createLinkBody.parse({ acl: ["view"], email: ["local@example.com"] }),
        "https://mam.example",
      );
      const log = printed.mock.calls.map((args) => args.map(String).join(" ")).join("\n");
      expect(log).toContain("local@example.com");
      expect(log).toContain("«Смета.pdf»");
      expect(log).toContain(`https://mam.example/sl/${id.slice(0, 4)}…`);
      expect(log).not.toContain(id);
      const ev = await db()
        .select()
        .from(events)
        .where(and(eq(events.entityId, id), eq(events.kind, "share-link.email")))
        .get();
      expect(ev?.data).toEqual({ via: "console", results: [{ to: "local@example.com", ok: true }] });
    } finally {
      printed.mockRestore();
    }
  });
});
