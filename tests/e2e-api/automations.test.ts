import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Client } from "../media/media";
import { byTemplate, ffmpeg, makeClip } from "../media/media";
import { adminOf, endedRuns, servers, startReceiver, until, workflowOf } from "./runtime";

/**
 * Uploads, the transcoder and automations on `npm start`, through the queue and the cron as users meet them: the
 * workflow with conditions that never ran on D1 (docs/decisions/054) is the second case.
 */

const dir = mkdtempSync(path.join(tmpdir(), "mam-e2e-api-"));
const image = path.join(dir, "Кадр.jpg");
execFileSync(ffmpeg, ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=320x240", "-frames:v", "1", image]);
const clip = makeClip(path.join(dir, "Клип.mp4"), 1, 320, 240);
let receiver: Awaited<ReturnType<typeof startReceiver>>;

beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.stop();
  rmSync(dir, { recursive: true, force: true });
});

let n = 0;
const uniq = (prefix: string) => `${prefix} ${Date.now().toString(36)}-${++n}`;
const tagsOf = async (client: Client, asset: string) =>
  ((await client.call(`/api/asset/${asset}`)).tags as { tag_id: string }[]).map((t) => t.tag_id);

describe.each(servers())("on $store", ({ url }) => {
  let admin: Client;
  let group: string;
  let scheduled: string;
  const scheduledBox = `/scheduled-${crypto.randomUUID()}`;

  beforeAll(async () => {
    admin = await adminOf(url);
    group = (await admin.call("/api/group/create", { json: { parent: "ffffffff-ffff-ffff-ffff-ffffffffffff", group_name: uniq("Поток") } }))
      .group_id;
    // Made first, checked last: due at the next minute, run by the cron (npm start fires it, LOCAL_CRONS every 5 s).
    scheduled = await workflowOf(admin, uniq("Каждую минуту"), {
      trigger: { type: "schedule", cron: "* * * * *" },
      steps: [{ action: "webhook.call", params: { url: `${receiver.url}${scheduledBox}` } }],
    });
  });

  it("an upload gets its tasks done by the transcoder, and the asset shows the preview and the proxies", async () => {
    const { assetId, variantId } = await admin.upload(clip, "video/mp4", group);
    const tasks = byTemplate(await admin.waitTasks(assetId, 4));
    for (const name of ["Технические метаданные", "Превью", "Прокси 360p", "Прокси 720p"])
      expect(tasks[name]?.status, `${name}: ${tasks[name]?.error}`).toBe("done");
    const preview = await admin.bytes(`/api/asset/content/preview/${assetId}/1/${variantId}`);
    expect(preview.subarray(0, 3).toString("hex")).toBe("ffd8ff"); // a JPEG
    const variants = await admin.call(`/api/asset/variants/${assetId}/1`);
    expect(variants.map((v: { variant_type: string }) => v.variant_type).sort()).toEqual(["initial", "proxy_highres", "proxy_lowres"]);
  });

  it("an upload into a watched group runs the workflow with conditions: the tag is set and a signed webhook arrives", async () => {
    const box = `/conditions-${crypto.randomUUID()}`;
    const tag = (await admin.call("/api/tags/create", { json: { tag_name: uniq("Фото") } })).tag_id as string;
    const wf = await workflowOf(admin, uniq("Фото в группе"), {
      trigger: { type: "asset.uploaded", group_id: group },
      conditions: [{ on: "mime", op: "prefix", value: "image/" }],
      steps: [
        { action: "tag.add", params: { tag_id: tag } },
        { action: "webhook.call", params: { url: `${receiver.url}${box}` } },
      ],
    });
    const photo = await admin.upload(image, "image/jpeg", group);
    const uploadedAt = Date.now();
    const video = await admin.upload(clip, "video/mp4", group);
    const hit = await until("the webhook", async () =>
      receiver.hits.find((h) => h.headers["webhook-id"] && h.body.includes(photo.assetId)),
    );
    console.log(`upload to webhook: ${hit.at - uploadedAt} ms (${url})`);
    const secret = (await admin.call(`/api/udwf/workflow/${wf}`)).steps[1].params.secret as string;
    const payload = new Webhook(secret).verify(hit.body, hit.headers) as { subject: { id: string } };
    expect(payload.subject.id).toBe(photo.assetId);
    expect(await tagsOf(admin, photo.assetId)).toContain(tag);

    const runs = await endedRuns(admin, wf, 2);
    expect(runs.map((r) => r.status).sort()).toEqual(["done", "stopped"]);
    expect(runs.find((r) => r.status === "stopped")?.error).toBe("Условие 1 не выполнено");
    expect(await tagsOf(admin, video.assetId)).not.toContain(tag);
    expect(receiver.hits.filter((h) => h.body.includes(video.assetId) && h.headers["webhook-id"]?.startsWith(runs[0].run_id))).toHaveLength(
      0,
    );
  });

  it("a manual run takes its form's values to the webhook", async () => {
    const box = `/manual-${crypto.randomUUID()}`;
    const wf = await workflowOf(admin, uniq("Вручную"), {
      trigger: { type: "manual", form: [{ name: "note", label: "Заметка", type: "string", required: true }] },
      steps: [{ action: "webhook.call", params: { url: `${receiver.url}${box}` } }],
    });
    const refused = await fetch(`${url}/api/udwf/execute/${wf}`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${admin.bearer}` },
      body: JSON.stringify({ form: {} }),
    });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(await refused.json())).toContain("form.note");
    const { run_id } = await admin.call(`/api/udwf/execute/${wf}`, { json: { form: { note: "сдать к пятнице" } } });
    const [run] = await endedRuns(admin, wf);
    expect(run).toMatchObject({ run_id, status: "done" });
    const hit = await until("the manual run's webhook", async () => receiver.hits.find((h) => h.headers["webhook-id"] === `${run_id}.0`));
    expect(JSON.parse(hit.body).input.form).toEqual({ note: "сдать к пятнице" });
  });

  it("a share link opened anonymously starts the share-link.opened workflow on its asset", async () => {
    const tag = (await admin.call("/api/tags/create", { json: { tag_name: uniq("Открыта") } })).tag_id as string;
    const { assetId } = await admin.upload(image, "image/jpeg", group);
    const wf = await workflowOf(admin, uniq("Ссылку открыли"), {
      trigger: { type: "share-link.opened", group_id: group },
      steps: [{ action: "tag.add", params: { tag_id: tag } }],
    });
    const made = await fetch(`${url}/api/sl/create/${assetId}`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${admin.bearer}` },
      body: JSON.stringify({ acl: ["view"] }),
    });
    expect(made.status).toBe(200);
    // The answer is the link's id as text (spec), or an object holding it.
    const text = await made.text();
    const linkId = text.startsWith("{") ? (JSON.parse(text).link_id as string) : text.replace(/"/g, "");
    const opened = await fetch(`${url}/api/sl/info/${linkId}`);
    expect(opened.status).toBe(200);
    const [run] = await endedRuns(admin, wf);
    expect(run.status).toBe("done");
    expect(await tagsOf(admin, assetId)).toContain(tag);
  });

  it("a scheduled workflow runs from the cron", async () => {
    const hit = await until(
      "the scheduled run's webhook",
      async () => receiver.hits.find((h) => h.headers["webhook-id"] && h.body.includes(scheduled)),
      90_000,
    );
    const runs = await endedRuns(admin, scheduled);
    expect(runs[0].status).toBe("done");
    expect(JSON.parse(hit.body).workflow_id).toBe(scheduled);
  });
});
