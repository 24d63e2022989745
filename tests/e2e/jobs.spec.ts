import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { APIRequestContext } from "@playwright/test";
import { ffmpegPath } from "../../transcoder/tools.mjs";
import { ADMIN, apiBearer, expect, gotoSignedIn, test } from "./fixtures";

/** /jobs follows a real task (real transcoder, real ffmpeg) from the queue to done without a reload. */

test.use({ signedInAs: ADMIN });
// One after the other, never side by side in two workers: the second test keeps the transcoder busy on purpose (two
// 1080p proxies ahead of everything), and the first waits for its own proxy, which then queued behind them and ran out
// of its 90 s once under the whole suite's load.
test.describe.configure({ mode: "default" });

async function uploadClip(request: APIRequestContext, bearer: string, file: string) {
  const headers = { Authorization: `Bearer ${bearer}` };
  const post = async (url: string, data?: unknown) => {
    const r = await request.post(url, { headers, data });
    expect(r.ok(), `${url}: ${r.status()} ${await r.text()}`).toBe(true);
    return r.json();
  };
  const data = readFileSync(file);
  const { asset_id } = await post("/api/asset/create", { asset_name: "Ролик для задач.mp4", asset_mime: "video/mp4" });
  const up = await post("/api/ul/start", { asset_id, size: data.length, name: "Ролик для задач.mp4", mime: "video/mp4" });
  const targets = await post(`/api/ul/${up.upload_id}/targets`, { parts: Array.from({ length: up.part_count }, (_, i) => i + 1) });
  for (const t of targets) {
    const put = await request.put(t.url, { data: data.subarray((t.part - 1) * up.part_size, (t.part - 1) * up.part_size + t.size) });
    expect(put.ok()).toBe(true);
    await post(`/api/ul/${up.upload_id}/parts/${t.part}`, { etag: put.headers().etag });
  }
  await post(`/api/ul/${up.upload_id}/complete`);
  return asset_id as string;
}

test("a task's progress reaches done on /jobs, and its log is there", async ({ page, request }) => {
  test.setTimeout(120_000);
  const dir = mkdtempSync(path.join(tmpdir(), "mam-e2e-jobs-"));
  const clip = path.join(dir, "clip.mp4");
  execFileSync(ffmpegPath, [
    "-v",
    "error",
    "-f",
    "lavfi",
    "-i",
    "testsrc=size=1280x720:rate=25",
    "-f",
    "lavfi",
    "-i",
    "sine",
    "-t",
    "4",
    "-c:v",
    "libx264",
    "-preset",
    "ultrafast",
    "-pix_fmt",
    "yuv420p",
    "-c:a",
    "aac",
    "-shortest",
    clip,
  ]);
  const bearer = await apiBearer(request, ADMIN.login, ADMIN.password);

  await gotoSignedIn(page, "/jobs");
  const assetId = await uploadClip(request, bearer, clip);
  rmSync(dir, { recursive: true, force: true });
  await page.getByLabel("ID файла или варианта").fill(assetId);

  const row = page.getByTestId("task-row").filter({ hasText: "Прокси 720p" });
  await expect(row).toHaveCount(1, { timeout: 20_000 });
  const seen = new Set<string>();
  await expect(async () => {
    seen.add((await row.getByTestId("task-status").getAttribute("data-status")) ?? "");
    expect(seen.has("done")).toBe(true);
  }).toPass({ timeout: 90_000, intervals: [250] });
  await expect(row.getByTestId("task-progress")).toHaveAttribute("data-value", "100");
  await expect(row.getByRole("button", { name: "Перезапустить" })).toBeVisible();
  await expect(page.getByTestId("task-row")).toHaveCount(4);
  // The owner filter: the uploader's own tasks (the signed-in admin's) are all four.
  await page.getByRole("textbox", { name: "Владелец" }).click();
  const filtered = page.waitForRequest(/\/api\/tasklist\/current\?.*owner=[0-9a-f-]{36}/);
  await page.getByRole("option", { name: /\(вы\)$/ }).click();
  await filtered;
  await expect(page.getByRole("textbox", { name: "Владелец" })).toHaveValue(/\(вы\)$/);
  await expect(page.getByTestId("task-row")).toHaveCount(4);

  await row.getByRole("link", { name: /^\d+$/ }).click();
  await expect(page).toHaveURL(/\/jobs\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId("task-log")).toContainText("Готово");
  await expect(page.getByTestId("task-status")).toHaveAttribute("data-status", "done");
});

test("a queued task is paused, resumed, re-prioritised and cancelled from /jobs; /jobs/{id} follows a running task's log", async ({
  page,
  request,
}) => {
  test.setTimeout(240_000);
  const dir = mkdtempSync(path.join(tmpdir(), "mam-e2e-jobs-"));
  const clip = path.join(dir, "clip.mp4");
  execFileSync(ffmpegPath, [
    "-v",
    "error",
    "-f",
    "lavfi",
    "-i",
    "testsrc=size=1920x1080:rate=25",
    "-f",
    "lavfi",
    "-i",
    "sine",
    "-t",
    "30",
    "-c:v",
    "libx264",
    "-preset",
    "ultrafast",
    "-pix_fmt",
    "yuv420p",
    "-c:a",
    "aac",
    "-shortest",
    clip,
  ]);
  const bearer = await apiBearer(request, ADMIN.login, ADMIN.password);
  const headers = { Authorization: `Bearer ${bearer}` };
  const assetId = await uploadClip(request, bearer, clip);
  rmSync(dir, { recursive: true, force: true });
  const enqueue = async (template_id: string, priority: number) => {
    const r = await request.post(`/api/tasklist/enqueue-task/${assetId}`, { headers, data: { template_id, priority } });
    expect(r.ok(), await r.text()).toBe(true);
    return (await r.json()).job_id as string;
  };
  // Two extra 720p proxies ahead of everything keep the transcoder busy; the watermark, far behind, stays queued.
  const proxy720 = "00000000-0000-4000-8000-000000000004";
  const blockers = [await enqueue(proxy720, 50), await enqueue(proxy720, 50)];
  const queued = await enqueue("00000000-0000-4000-8000-000000000006", -10);
  const apiTask = async (id: string) =>
    (await (await request.get(`/api/tasklist/task/${id}`, { headers })).json()) as { status: string; priority: number };

  try {
    await gotoSignedIn(page, "/jobs");
    await page.getByLabel("ID файла или варианта").fill(assetId);
    const row = page.locator(`[data-testid="task-row"][data-job="${queued}"]`);
    const status = row.getByTestId("task-status");
    await expect(status).toHaveAttribute("data-status", "inqueue", { timeout: 20_000 });

    await row.getByRole("button", { name: "Приостановить" }).click();
    await expect(status).toHaveAttribute("data-status", "paused");
    await expect(row.getByRole("button", { name: "Приостановить" })).toHaveCount(0);
    expect((await apiTask(queued)).status).toBe("paused");

    await row.getByRole("button", { name: "Продолжить" }).click();
    await expect(status).toHaveAttribute("data-status", "inqueue");

    await row.getByRole("button", { name: "Повысить приоритет" }).click();
    await expect(row.getByTestId("task-priority")).toHaveText("-9");
    expect((await apiTask(queued)).priority).toBe(-9);

    await row.getByRole("button", { name: "Отменить" }).click();
    await expect(status).toHaveAttribute("data-status", "canceled");
    await expect(row.getByRole("button", { name: "Перезапустить" })).toBeVisible();
    await expect(row.getByRole("button", { name: "Повысить приоритет" })).toBeDisabled();

    // The log page of a proxy while it runs: progress and log lines arrive, then done, without a reload. Two more
    // proxies enqueued now are still to run (the first two may have finished during the steps above).
    blockers.push(await enqueue(proxy720, 60), await enqueue(proxy720, 60));
    let running = "";
    await expect(async () => {
      for (const id of blockers) if ((await apiTask(id)).status === "running") running = id;
      expect(running).not.toBe("");
    }).toPass({ timeout: 60_000, intervals: [250] });
    await gotoSignedIn(page, `/jobs/${running}`);
    await expect(page.getByTestId("task-status")).toHaveAttribute("data-status", "running");
    // A mark on this page's window: it is still there at the end, so nothing below reloaded the page.
    await page.evaluate(() => Object.assign(window, { mamSamePage: true }));
    const log = page.getByTestId("task-log");
    await expect(log).toContainText("Исходник получен");
    await expect(log).not.toContainText("Готово");
    await expect(page.getByTestId("task-status")).toHaveAttribute("data-status", "done", { timeout: 150_000 });
    await expect(log).toContainText("Готово");
    await expect(page.getByTestId("task-progress")).toHaveAttribute("data-value", "100");
    expect(await page.evaluate(() => "mamSamePage" in window)).toBe(true);
  } finally {
    // Stop what is left of this asset's work so the other tests get the CPU back.
    const list = (await (await request.get(`/api/tasklist/current?entity=${assetId}&take=50`, { headers })).json()) as {
      job_id: string;
      status: string;
    }[];
    for (const t of list.filter((x) => ["none", "inqueue", "running", "paused"].includes(x.status))) {
      await request.post(`/api/tasklist/command/${t.job_id}`, { headers, data: { command: "cancel" } });
    }
  }
});
