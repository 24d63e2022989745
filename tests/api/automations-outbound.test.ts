import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { events, udwfRuns, udwfSteps } from "../../db/schema";
import { nowSeconds } from "../../db/schema/columns";
import type { Env } from "../../functions/lib/env";
import { ownerAuth } from "../../functions/lib/owner";
import { runWorkflow } from "../../functions/udwf/runner";
import { requireSend } from "../../functions/udwf/sending";
import { StepError } from "../../functions/udwf/step-error";
import { callWebhook, webhookFetcher } from "../../functions/udwf/webhook";
import { call, db, grant, joinTeam, mkGroup, mkPerson, type Person, uniq, VIRTUAL_ROOT } from "./fixtures";

/**
 * What automations send out of the archive (docs/decisions/053-outbound-sends.md): webhooks never follow a redirect
 * and never log an answer's body; without WEBHOOK_ALLOW_PRIVATE they reach public addresses only, through the
 * public-only outbound service (WEBHOOK_FETCH, bound in vitest.config.ts as `npm start` binds it); mails and webhooks
 * are bounded per owner and, when an admin says so, to one team. The suite runs with WEBHOOK_ALLOW_PRIVATE=true (the
 * receiver is on loopback), so the refusals are driven with that switched off per call.
 */

const receiver = () => inject("webhookUrl");
let owner: Person;

beforeAll(async () => {
  owner = await mkPerson();
  await grant(owner.id, await mkGroup(VIRTUAL_ROOT), ["read"]);
});

async function workflow(setup: unknown) {
  const bearer = owner.bearer;
  const id = (await call("/api/udwf/workflow", { method: "POST", bearer, json: { name: uniq("Наружу") } })).body.workflow_id as string;
  const r = await call(`/api/udwf/workflow-setup/${id}`, { method: "PATCH", bearer, json: setup });
  expect(r.status, r.text).toBe(200);
  return id;
}

async function runToEnd(wf: string) {
  const r = await call(`/api/udwf/execute/${wf}`, { method: "POST", bearer: owner.bearer, json: {} });
  expect(r.status, r.text).toBe(200);
  const end = Date.now() + 40_000;
  for (;;) {
    const run = await db().select().from(udwfRuns).where(eq(udwfRuns.runId, r.body.run_id)).get();
    if (run && ["done", "failed", "stopped"].includes(run.status)) {
      const step = await db().select().from(udwfSteps).where(eq(udwfSteps.runId, run.runId)).get();
      const detail = (await call(`/api/udwf/run/${run.runId}`, { bearer: owner.bearer })).body;
      const stepEvents = await db().select({ data: events.data }).from(events).where(eq(events.kind, "workflow.step")).all();
      const logged = JSON.stringify([run, step, detail, stepEvents.filter((e) => JSON.stringify(e.data).includes(run.runId))]);
      return { run, step, logged };
    }
    if (Date.now() > end) throw new Error(`run ${r.body.run_id} did not end`);
    await new Promise((res) => setTimeout(res, 100));
  }
}

const received = async (box: string) => ((await (await fetch(`${receiver()}${box}`)).json()) as unknown[]).length;

describe("webhook answers", () => {
  it("a redirect is a failed delivery with its status, never followed and not retried", async () => {
    const target = `/redirected-to-${crypto.randomUUID()}`;
    const box = `/redirecting-${crypto.randomUUID()}`;
    // 307 keeps the method and body: a sender that followed it would POST the payload to the target.
    const url = `${receiver()}${box}?status=307&location=${encodeURIComponent(`${receiver()}${target}`)}`;
    const { run, step } = await runToEnd(
      await workflow({ trigger: { type: "manual" }, steps: [{ action: "webhook.call", params: { url } }] }),
    );
    expect(run.status).toBe("failed");
    expect(run.error).toMatch(/ответ 307/);
    expect(step?.attempts).toBe(1);
    expect(step?.log[0]).toMatch(/^попытка 1: ответ 307, \d+ Б, \d+ мс: перенаправления не выполняются$/);
    expect(await received(box)).toBe(1);
    expect(await received(target)).toBe(0);
  });

  it("the log keeps each attempt's status, size and time, never the body", async () => {
    const ok = `/body-ok-${crypto.randomUUID()}`;
    const done = await runToEnd(
      await workflow({ trigger: { type: "manual" }, steps: [{ action: "webhook.call", params: { url: `${receiver()}${ok}` } }] }),
    );
    expect(done.run.status).toBe("done");
    // The receiver answers "принято": 14 bytes of UTF-8.
    expect(done.step?.log[0]).toMatch(/^попытка 1: ответ 200, 14 Б, \d+ мс$/);
    expect(done.logged).not.toContain("принято");

    const failing = `/body-failing-${crypto.randomUUID()}`;
    const failed = await runToEnd(
      await workflow({
        trigger: { type: "manual" },
        steps: [{ action: "webhook.call", params: { url: `${receiver()}${failing}?status=500` } }],
      }),
    );
    expect(failed.run.status).toBe("failed");
    expect(failed.step?.log.length).toBeGreaterThan(1);
    for (const line of failed.step?.log ?? []) expect(line).toMatch(/^попытка \d: ответ 500, 14 Б, \d+ мс$/);
    expect(failed.logged).not.toContain("сломано");
  }, 60_000);
});

describe("private addresses (WEBHOOK_ALLOW_PRIVATE off)", () => {
  const strict = { ...(env as unknown as Env), WEBHOOK_ALLOW_PRIVATE: "false" };
  const send = (url: string, withEnv: Pick<Env, "WEBHOOK_ALLOW_PRIVATE" | "WEBHOOK_FETCH"> = strict) =>
    callWebhook(withEnv, { url, secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", msgId: "m.0", payload: { hello: 1 } });

  it("refuses loopback written in any notation before connecting", async () => {
    const box = `/never-${crypto.randomUUID()}`;
    const port = new URL(receiver()).port;
    for (const host of ["127.0.0.1", "127.1", "2130706433", "0x7f.1", "0177.0.0.1", "[::ffff:127.0.0.1]", "[::1]", "localhost"]) {
      const refused = await send(`http://${host}:${port}${box}`).catch((e: unknown) => e);
      expect(refused, host).toBeInstanceOf(StepError);
      expect((refused as StepError).message, host).toContain("внутренней сети");
      expect((refused as StepError).retry, host).toBe(false);
    }
    expect(await received(box)).toBe(0);
  });

  it("connects through the public-only outbound service, which refuses what a name resolves to on this machine", async () => {
    expect(env.WEBHOOK_FETCH).toBeTruthy();
    expect(webhookFetcher(strict)).toBe(env.WEBHOOK_FETCH);
    // With private addresses allowed (local work), the normal outbound path.
    expect(webhookFetcher({ ...strict, WEBHOOK_ALLOW_PRIVATE: "true" })).not.toBe(env.WEBHOOK_FETCH);
    // The service itself: "localhost" passes no literal check there, it is refused once resolved to 127.0.0.1.
    const box = `/through-service-${crypto.randomUUID()}`;
    const port = new URL(receiver()).port;
    for (const url of [`http://localhost:${port}${box}`, `${receiver()}${box}`]) {
      const answer = await env.WEBHOOK_FETCH!.fetch(url, { method: "POST", body: "{}" }).then(
        (r) => r.status,
        () => "refused",
      );
      expect(answer, url).not.toBe(200);
    }
    expect(await received(box)).toBe(0);
  });

  it("sends a public address through that service, with redirects left to the sender (not followed)", async () => {
    const seen: { url: string; redirect?: string }[] = [];
    const service = {
      fetch: async (input: RequestInfo | URL, init?: RequestInit) => {
        seen.push({ url: String(input), redirect: init?.redirect });
        return new Response("тело, которое не попадёт в журнал", { status: 200 });
      },
    };
    const answer = await send("https://hooks.example.com/in", { WEBHOOK_ALLOW_PRIVATE: "false", WEBHOOK_FETCH: service as Fetcher });
    expect(seen).toEqual([{ url: "https://hooks.example.com/in", redirect: "manual" }]);
    expect(answer.status).toBe(200);
    expect(answer.line).toMatch(/^ответ 200, \d+ Б, \d+ мс$/);
    expect(JSON.stringify(answer)).not.toContain("тело");
  });
});

describe("sends per owner and the sending team", () => {
  it("counts mails by recipient and webhook calls by attempt, per owner per hour", async () => {
    const person = await mkPerson();
    const auth = (await ownerAuth(db(), person.id))!;
    const limited = { ...(env as unknown as Env), UDWF_SEND_PER_HOUR: "3" };
    await requireSend(db(), limited, auth, "email.send", 2);
    await requireSend(db(), limited, auth, "webhook.call");
    const over = await requireSend(db(), limited, auth, "webhook.call").catch((e: unknown) => e);
    expect(over).toBeInstanceOf(StepError);
    expect((over as StepError).message).toMatch(/не больше 3 в час/);
    // Another owner has an hour of their own; an admin's workflows are not bounded.
    await requireSend(db(), limited, (await ownerAuth(db(), (await mkPerson()).id))!, "email.send", 3);
    const boss = (await ownerAuth(db(), (await mkPerson({ admin: true })).id))!;
    await requireSend(db(), { ...limited, UDWF_SEND_PER_HOUR: "0", UDWF_SEND_TEAM: crypto.randomUUID() }, boss, "email.send", 20);
  });

  it("an owner outside the sending team cannot send; a member can; a run says why it failed", async () => {
    const team = await mkGroup(VIRTUAL_ROOT, uniq("Рассыльщики"));
    const teamEnv = { ...(env as unknown as Env), UDWF_SEND_TEAM: team };
    const outsider = (await ownerAuth(db(), owner.id))!;
    await expect(requireSend(db(), teamEnv, outsider, "email.send", 1)).rejects.toThrow(/команды/);

    // A whole run with that setting: the mail step fails at once, with the reason, and nothing is mailed.
    const wf = await workflow({
      trigger: { type: "manual" },
      steps: [{ action: "email.send", params: { to: ["someone@example.com"], subject: "Тема", body: "Текст письма" } }],
    });
    const runId = crypto.randomUUID();
    await db()
      .insert(udwfRuns)
      .values({
        runId,
        workflowId: wf,
        triggerKey: `test:${runId}`,
        status: "queued",
        input: { source: "manual", entity: null, form: {} },
        ctime: nowSeconds(),
      });
    await runWorkflow(teamEnv, runId);
    const run = await db().select().from(udwfRuns).where(eq(udwfRuns.runId, runId)).get();
    expect(run?.status).toBe("failed");
    expect(run?.error).toMatch(/UDWF_SEND_TEAM/);
    const mailed = await db().select().from(events).where(eq(events.kind, "workflow.email")).all();
    expect(mailed.some((e) => JSON.stringify(e.data).includes(runId))).toBe(false);

    const member = await mkPerson();
    await joinTeam(team, member.id);
    await requireSend(db(), teamEnv, (await ownerAuth(db(), member.id))!, "email.send", 1);
  });
});
