import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Locator, Page } from "@playwright/test";
import { parseCsv } from "../../functions/lib/csv";
import { parseVtt } from "../../functions/transcripts/subtitles";
import { makeClip } from "../media/media";
import { Seeder, unique } from "./browse-seed";
import { ADMIN, expect, openSignedIn, reloadSignedIn, test } from "./fixtures";

/**
 * Drawing on a frame, J/K/L, ranges, internal comments and exports in the viewer's review panel (issue 38,
 * docs/decisions/061-review-and-approval.md, "Drawing and keys"), in Chromium against the real server with a real
 * 25 fps clip. The clip is 4:3 and the player's box is not, so the picture is pillarboxed: the drawing must be
 * placed by the picture, not by the element.
 */

const FPS = 25;
const dir = mkdtempSync(path.join(tmpdir(), "mam-review-draw-"));
const clip = makeClip(path.join(dir, "рисунок.mp4"), 4, 320, 240, FPS);

const currentTime = (video: Locator) => video.evaluate((el: HTMLVideoElement) => el.currentTime);
const threads = (page: Page) => page.getByRole("list", { name: "Комментарии к версии" }).getByTestId("review-comment");
const thread = (page: Page, text: string) => threads(page).filter({ hasText: text });

/** Where the picture is on the screen inside the video element (it keeps its aspect inside the element's box). */
const pictureOf = (video: Locator) =>
  video.evaluate((el: HTMLVideoElement) => {
    const r = el.getBoundingClientRect();
    const scale = Math.min(r.width / el.videoWidth, r.height / el.videoHeight);
    const width = el.videoWidth * scale;
    const height = el.videoHeight * scale;
    return { left: r.left + (r.width - width) / 2, top: r.top + (r.height - height) / 2, width, height, element: r.width / r.height };
  });

/** An uploaded clip whose frame rate the probe has found (the panel counts frames at it), and its viewer open. */
async function clipInViewer(page: Page, name: string) {
  const seed = await Seeder.admin();
  const groupId = await seed.group(unique(name));
  const assetId = await seed.uploadInto(groupId, clip, "video/mp4");
  const comments = () => seed.call(`/api/review/comments?asset_id=${assetId}`);
  await expect.poll(async () => (await comments()).rate, { timeout: 150_000, intervals: [2000] }).toEqual({ fps_num: FPS, fps_den: 1 });
  await openSignedIn(page, ADMIN, `/mam/${groupId}/asset/${assetId}`);
  const video = page.locator("video");
  await expect.poll(() => video.evaluate((el: HTMLVideoElement) => el.readyState), { timeout: 15_000 }).toBeGreaterThanOrEqual(1);
  return { seed, assetId, video, comments };
}

async function seekTo(page: Page, video: Locator, seconds: number, playhead: string) {
  await video.evaluate((el: HTMLVideoElement, s) => {
    el.pause();
    el.currentTime = s;
  }, seconds);
  await expect(page.getByTestId("review-playhead")).toHaveText(`на ${playhead}`);
}

test("a rectangle drawn on a paused frame goes with the comment and comes back at the same place and frame", async ({ page }) => {
  test.setTimeout(240_000);
  const { video, comments } = await clipInViewer(page, "Рисунок на кадре");
  // Frame 30 at 25 fps: 00:00:01:05.
  await seekTo(page, video, 1.2, "00:00:01:05");

  const tools = page.getByRole("group", { name: "Рисование на кадре" });
  await tools.getByRole("button", { name: "Прямоугольник" }).click();
  await expect(page.getByRole("img", { name: "Рисунок на кадре" })).toBeVisible();
  const pic = await pictureOf(video);
  // The element is wider than the 4:3 picture: there are bars, and a drawing placed by the element would be off.
  expect(pic.element).toBeGreaterThan(4 / 3 + 0.05);
  const from = { x: pic.left + pic.width * 0.25, y: pic.top + pic.height * 0.25 };
  const to = { x: pic.left + pic.width * 0.75, y: pic.top + pic.height * 0.5 };
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move((from.x + to.x) / 2, (from.y + to.y) / 2, { steps: 4 });
  await page.mouse.move(to.x, to.y, { steps: 4 });
  await page.mouse.up();
  await expect(tools.getByTestId("draw-count")).toHaveText("1 фигура в комментарии");
  const drawn = await page.getByTestId("drawn-shape").boundingBox();
  expect(drawn).not.toBeNull();

  await page.getByRole("textbox", { name: "Текст комментария" }).fill("Здесь пятно");
  await page.getByRole("button", { name: "Комментарий", exact: true }).click();
  await expect(thread(page, "Здесь пятно")).toBeVisible();
  // The drawing went with the comment; the tool is put away.
  await expect(page.getByTestId("drawn-shape")).toHaveCount(0);
  const saved = (await comments()).items.find((c: { body: string }) => c.body === "Здесь пятно");
  expect(saved.at).toMatchObject({ frame: 30, fps_num: FPS, fps_den: 1 });
  expect(saved.shapes).toHaveLength(1);
  const [rect] = saved.shapes;
  expect(rect.type).toBe("rect");
  expect(rect.color).toMatch(/^#[0-9a-f]{6}$/i);
  // 0–1 of the picture, within a pixel of the picture's size.
  const px = 1.5 / pic.width;
  expect(Math.abs(rect.x - 0.25)).toBeLessThan(px);
  expect(Math.abs(rect.y - 0.25)).toBeLessThan(1.5 / pic.height);
  expect(Math.abs(rect.w - 0.5)).toBeLessThan(2 * px);
  expect(Math.abs(rect.h - 0.25)).toBeLessThan(3 / pic.height);

  // After a reload, away from the frame: a click on the comment brings back the frame and the drawing where it was.
  await reloadSignedIn(page);
  await expect.poll(() => video.evaluate((el: HTMLVideoElement) => el.readyState), { timeout: 15_000 }).toBeGreaterThanOrEqual(1);
  await expect(page.getByTestId("drawn-shape")).toHaveCount(0);
  await thread(page, "Здесь пятно").getByTestId("review-seek").click();
  await expect.poll(async () => Math.abs((await currentTime(video)) - 30 / FPS)).toBeLessThan(1 / FPS / 2);
  expect(await video.evaluate((el: HTMLVideoElement) => el.paused)).toBe(true);
  await expect(page.getByTestId("review-playhead")).toHaveText("на 00:00:01:05");
  const shown = page.getByTestId("drawn-shape");
  await expect(shown).toHaveCount(1);
  await expect(shown).toHaveAttribute("data-type", "rect");
  const again = await shown.boundingBox();
  for (const k of ["x", "y", "width", "height"] as const) expect(Math.abs(again![k] - drawn![k])).toBeLessThan(2);
  // The shown drawing does not take the pointer: the player's own controls stay usable.
  await expect(page.getByRole("img", { name: "Рисунок комментария" })).toHaveCSS("pointer-events", "none");

  // Playing takes the drawing away (it belongs to its frame).
  await page.getByRole("heading", { name: "Комментарии" }).click();
  await page.keyboard.press("l");
  await expect(page.getByTestId("drawn-shape")).toHaveCount(0);
  await page.keyboard.press("k");
});

test("J, K and L shuttle the player, K with J or L and «,»/«.» step frames; letters typed in the box are text", async ({ page }) => {
  test.setTimeout(240_000);
  const { video } = await clipInViewer(page, "Клавиши JKL");
  const state = () => video.evaluate((el: HTMLVideoElement) => ({ t: el.currentTime, paused: el.paused, rate: el.playbackRate }));
  await seekTo(page, video, 0.4, "00:00:00:10");
  await page.getByRole("heading", { name: "Комментарии" }).click();

  // L plays forwards at 1×, L again at 2×; K stops and goes back to 1×. (Retried from K: the transcoder may still
  // add variants of the fresh upload, and the screen's reload then puts a new player element in place.)
  await expect(async () => {
    await page.keyboard.press("k");
    await page.keyboard.press("l");
    expect(await state()).toMatchObject({ paused: false, rate: 1 });
    await page.keyboard.press("l");
    expect((await state()).rate).toBe(2);
  }).toPass({ timeout: 30_000 });
  await expect.poll(async () => (await state()).t, { timeout: 10_000 }).toBeGreaterThan(0.45);
  await page.keyboard.press("k");
  const stopped = await state();
  expect(stopped).toMatchObject({ paused: true, rate: 1 });
  expect(await currentTime(video)).toBe(stopped.t);

  // J moves back (the element cannot play backwards: the playhead is moved, paused); K stops it.
  await seekTo(page, video, 3, "00:00:03:00");
  await page.keyboard.press("j");
  await expect.poll(() => currentTime(video), { timeout: 10_000 }).toBeLessThan(2.8);
  await page.keyboard.press("k");
  const back = await currentTime(video);
  expect(await video.evaluate((el: HTMLVideoElement) => el.paused)).toBe(true);
  // Stopped means stopped: two painted frames later the playhead is where K left it.
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  expect(await currentTime(video)).toBe(back);

  // «.» and «,» step one frame at 25 fps, onto the frame's start; K held with L or J does the same.
  await seekTo(page, video, 2.2, "00:00:02:05");
  await page.keyboard.press(".");
  await expect.poll(() => currentTime(video)).toBeCloseTo(56 / FPS, 5);
  await page.keyboard.press(",");
  await page.keyboard.press(",");
  await expect.poll(() => currentTime(video)).toBeCloseTo(54 / FPS, 5);
  await page.keyboard.down("k");
  await page.keyboard.press("l");
  await page.keyboard.press("l");
  await page.keyboard.up("k");
  await expect.poll(() => currentTime(video)).toBeCloseTo(56 / FPS, 5);
  await page.keyboard.down("k");
  await page.keyboard.press("j");
  await page.keyboard.up("k");
  await expect.poll(() => currentTime(video)).toBeCloseTo(55 / FPS, 5);
  expect(await video.evaluate((el: HTMLVideoElement) => el.paused)).toBe(true);

  // In the comment box J, K, L are letters: the player does not move.
  const box = page.getByRole("textbox", { name: "Текст комментария" });
  await box.click();
  await page.keyboard.type("jkl");
  await expect(box).toHaveValue("jkl");
  expect(await state()).toMatchObject({ paused: true, rate: 1, t: 55 / FPS });
});

test("a range marked with O, an internal comment, and the CSV and WebVTT exports read back", async ({ page }) => {
  test.setTimeout(240_000);
  const { video, comments } = await clipInViewer(page, "Экспорт комментариев");
  // A range: the end marked at 2.0 s (key O), the comment made back at 1.0 s.
  await seekTo(page, video, 2, "00:00:02:00");
  await page.getByRole("heading", { name: "Комментарии" }).click();
  await page.keyboard.press("o");
  await expect(page.getByTestId("review-range")).toHaveText("… – 00:00:02:00");
  await seekTo(page, video, 1, "00:00:01:00");
  const box = page.getByRole("textbox", { name: "Текст комментария" });
  await box.fill("Весь проход, «кадр» = 1");
  await page.getByRole("button", { name: "Комментарий", exact: true }).click();
  const ranged = thread(page, "Весь проход");
  await expect(ranged.getByTestId("review-timecode")).toHaveText("00:00:01:00 – 00:00:02:00");
  await expect(page.getByTestId("review-range")).toHaveCount(0);

  // An internal one at 3.0 s: marked in the list, and `internal` in the API.
  await seekTo(page, video, 3, "00:00:03:00");
  await box.fill("Только нам: переснять");
  await page.getByRole("checkbox", { name: "Только для команды" }).check();
  await page.getByRole("button", { name: "Комментарий", exact: true }).click();
  await expect(thread(page, "Только нам").getByTestId("review-internal")).toHaveText("Для команды");
  await expect(ranged.getByTestId("review-internal")).toHaveCount(0);
  const items = (await comments()).items as { body: string; internal: boolean; until: { frame: number } | null; comment_id: string }[];
  expect(items.map((c) => [c.body, c.internal, c.until?.frame ?? null])).toEqual([
    ["Весь проход, «кадр» = 1", false, 50],
    ["Только нам: переснять", true, null],
  ]);

  // The exports come through the app's download path (the bearer, not a bare link) with the API's file names.
  const exports = page.getByRole("group", { name: "Экспорт" });
  // 25 fps: no drop-frame choice.
  await expect(exports.getByRole("checkbox")).toHaveCount(0);
  const save = async (format: string) => {
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      exports.getByRole("button", { name: format, exact: true }).click(),
    ]);
    return { name: download.suggestedFilename(), text: readFileSync((await download.path())!, "utf8") };
  };
  const csv = await save("CSV");
  expect(csv.name).toBe("рисунок v1.csv");
  const [head, ...rows] = parseCsv(csv.text);
  const col = (name: string) => head.indexOf(name);
  expect(col("body")).toBeGreaterThanOrEqual(0);
  expect(rows.map((r) => [r[col("body")], r[col("timecode")], r[col("internal")]])).toEqual([
    ["Весь проход, «кадр» = 1", "00:00:01:00", "no"],
    ["Только нам: переснять", "00:00:03:00", "yes"],
  ]);

  const vtt = await save("WebVTT");
  expect(vtt.name).toBe("рисунок v1.vtt");
  const cues = await parseVtt(vtt.text);
  expect(cues.map((c) => [c.id, c.start, c.end, c.text])).toEqual([
    [items[0].comment_id, 1, 2, "Весь проход, «кадр» = 1"],
    [items[1].comment_id, 3, 6, "Только нам: переснять"],
  ]);
});
