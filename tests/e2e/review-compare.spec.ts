import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Locator } from "@playwright/test";
import { ffmpeg, makeClip } from "../media/media";
import { Seeder, unique } from "./browse-seed";
import { ADMIN, expect, openSignedIn, test } from "./fixtures";

/**
 * Comparing two versions (issue 38, docs/decisions/061-review-and-approval.md «Compare») in Chromium: version 1 of a
 * clip at 25 fps and version 2 at 30 fps play side by side; a seek of either puts the other on its own frame of the
 * same moment, play and pause drive both. Two versions of an image show one over the other with a wipe.
 */

const dir = mkdtempSync(path.join(tmpdir(), "mam-compare-"));
const clip25 = makeClip(path.join(dir, "ролик-25.mp4"), 4, 320, 240, 25);
const clip30 = makeClip(path.join(dir, "ролик-30.mp4"), 4, 320, 240, 30);
const still = (name: string, source: string) => {
  const file = path.join(dir, name);
  execFileSync(ffmpeg, ["-v", "error", "-y", "-f", "lavfi", "-i", `${source}=size=320x240`, "-frames:v", "1", file]);
  return file;
};
const imageA = still("кадр-1.png", "testsrc");
const imageB = still("кадр-2.png", "smptebars");

/** Uploads `file` into an existing asset through the resumable protocol: a new version of it. */
async function uploadVersion(seed: Seeder, assetId: string, file: string, mime: string) {
  const data = readFileSync(file);
  const name = path.basename(file);
  const up = await seed.call("/api/ul/start", { json: { asset_id: assetId, size: data.length, name, mime } });
  const parts = Array.from({ length: up.part_count }, (_, i) => i + 1);
  const targets = await seed.call(`/api/ul/${up.upload_id}/targets`, { json: { parts } });
  for (const t of targets) {
    const chunk = data.subarray((t.part - 1) * up.part_size, (t.part - 1) * up.part_size + t.size);
    const res = await fetch(t.url, { method: "PUT", body: chunk, headers: { "Content-Length": String(chunk.length) } });
    if (!res.ok) throw new Error(`part ${t.part}: ${res.status}`);
    await seed.call(`/api/ul/${up.upload_id}/parts/${t.part}`, { json: { etag: res.headers.get("ETag") } });
  }
  await seed.call(`/api/ul/${up.upload_id}/complete`, { method: "POST" });
}

const time = (video: Locator) => video.evaluate((el: HTMLVideoElement) => el.currentTime);
const paused = (video: Locator) => video.evaluate((el: HTMLVideoElement) => el.paused);
const seek = (video: Locator, seconds: number) =>
  video.evaluate((el: HTMLVideoElement, s: number) => {
    el.currentTime = s;
  }, seconds);

test("two versions of a clip at 25 and 30 fps play in sync: a seek of one puts the other on its frame of that moment", async ({ page }) => {
  // Two uploads and their probes (each version's frame rate) take a while on a busy machine.
  test.setTimeout(240_000);
  const seed = await Seeder.admin();
  const groupId = await seed.group(unique("Сравнение"));
  const assetId = await seed.uploadInto(groupId, clip25, "video/mp4");
  await uploadVersion(seed, assetId, clip30, "video/mp4");
  const rate = async (v: number) => (await seed.call(`/api/review/comments?asset_id=${assetId}&version=${v}`)).rate;
  await expect.poll(() => rate(1), { timeout: 180_000, intervals: [2000] }).toEqual({ fps_num: 25, fps_den: 1 });
  await expect.poll(() => rate(2), { timeout: 180_000, intervals: [2000] }).toEqual({ fps_num: 30, fps_den: 1 });

  // «Сравнить» in the viewer opens the previous version against the one shown.
  await openSignedIn(page, ADMIN, `/mam/${groupId}/asset/${assetId}`);
  await page.getByRole("link", { name: "Сравнить" }).click();
  await expect(page).toHaveURL(new RegExp(`/mam/${groupId}/asset/${assetId}/compare\\?a=1&b=2$`));
  const left = page.getByTestId("compare-left").locator("video");
  const right = page.getByTestId("compare-right").locator("video");
  await expect(page.getByTestId("compare-left")).toContainText("Версия 1");
  await expect(page.getByTestId("compare-left")).toContainText("25 кадр/с");
  await expect(page.getByTestId("compare-right")).toContainText("Версия 2");
  await expect(page.getByTestId("compare-right")).toContainText("30 кадр/с");
  for (const v of [left, right])
    await expect.poll(() => v.evaluate((el: HTMLVideoElement) => el.readyState), { timeout: 15_000 }).toBeGreaterThanOrEqual(1);

  // A seek of the right one (30 fps) to 2.21 s: the left one (25 fps) goes to the start of its frame 55 (2.2 s).
  await seek(right, 2.21);
  await expect.poll(() => time(left)).toBeCloseTo(2.2, 3);
  expect(Math.abs((await time(left)) - (await time(right)))).toBeLessThan(1 / 25);
  // And back: a seek of the left one to 1.3 s puts the right one on the start of its frame 39 (1.3 s).
  await seek(left, 1.3);
  await expect.poll(() => time(right)).toBeCloseTo(1.3, 3);
  // 0.97 s is inside frame 24 at 25 fps (0.96) and frame 29 at 30 fps (0.9667): each its own frame of that moment.
  await seek(left, 0.97);
  await expect.poll(() => time(right)).toBeCloseTo(29 / 30, 3);
  expect(await time(left)).toBeCloseTo(0.97, 3);

  // Play and pause of one drive both; paused, they stand within a frame of each other.
  await page.getByTestId("compare-play").click();
  await expect.poll(() => Promise.all([paused(left), paused(right)])).toEqual([false, false]);
  await expect.poll(() => time(left)).toBeGreaterThan(1.2);
  await right.evaluate((el: HTMLVideoElement) => el.pause());
  await expect.poll(() => Promise.all([paused(left), paused(right)])).toEqual([true, true]);
  await expect.poll(async () => Math.abs((await time(left)) - (await time(right)))).toBeLessThan(1 / 25);

  // Another pair from the menus: the address names it, the screen follows.
  await page.getByRole("textbox", { name: "Слева" }).click();
  await page.getByRole("option", { name: "Версия 2" }).click();
  await expect(page).toHaveURL(/compare\?a=2&b=2$/);
  await expect(page.getByTestId("compare-left")).toContainText("Версия 2");
});

test("two versions of an image: the wipe's divider follows a drag and the arrow keys", async ({ page }) => {
  const seed = await Seeder.admin();
  const groupId = await seed.group(unique("Сравнение картинок"));
  const assetId = await seed.uploadInto(groupId, imageA, "image/png");
  await uploadVersion(seed, assetId, imageB, "image/png");
  await openSignedIn(page, ADMIN, `/mam/${groupId}/asset/${assetId}/compare?a=1&b=2`);
  const wipe = page.getByTestId("compare-wipe");
  const divider = wipe.getByRole("slider", { name: "Шторка" });
  await expect(divider).toHaveAttribute("aria-valuenow", "50");
  const over = page.getByTestId("compare-wipe-left");
  await expect(over).toHaveCSS("clip-path", "inset(0px 50% 0px 0px)");
  await expect.poll(() => over.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBe(320);

  // Dragged to a quarter of the width: the left version shows only up to there.
  const box = (await wipe.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.35, box.y + box.height / 2, { steps: 4 });
  await page.mouse.move(box.x + box.width * 0.25, box.y + box.height / 2, { steps: 4 });
  await page.mouse.up();
  await expect.poll(async () => Number(await divider.getAttribute("aria-valuenow"))).toBeGreaterThanOrEqual(24);
  expect(Number(await divider.getAttribute("aria-valuenow"))).toBeLessThanOrEqual(26);
  const quarter = Number(await divider.getAttribute("aria-valuenow"));
  await divider.focus();
  await page.keyboard.press("ArrowRight");
  await expect(divider).toHaveAttribute("aria-valuenow", String(quarter + 5));

  // Side by side shows both versions whole.
  await page.getByText("Рядом").click();
  await expect(page.getByTestId("compare-left").getByRole("img")).toBeVisible();
  await expect(page.getByTestId("compare-right").getByRole("img")).toBeVisible();
});
