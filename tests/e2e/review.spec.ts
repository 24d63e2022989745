import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Locator, Page } from "@playwright/test";
import { ffmpeg, makeClip } from "../media/media";
import { base, Seeder, unique } from "./browse-seed";
import { ADMIN, expect, openSignedIn, reloadSignedIn, test } from "./fixtures";

/**
 * The viewer's review in Chromium (issue 38, docs/decisions/061-review-and-approval.md): a real 25 fps clip
 * uploaded through /api/ul; a comment made with «Комментарий» at the frame the player shows, kept across a
 * reload, seeking the player back to that frame; a reply, resolve and the filter; the approval bar after a
 * request made through the API; and what a reader who was asked to approve may and may not do.
 */

const FPS = 25;
const dir = mkdtempSync(path.join(tmpdir(), "mam-review-"));
const clip = makeClip(path.join(dir, "ролик.mp4"), 4, 320, 240, FPS);
const image = path.join(dir, "кадр.png");
execFileSync(ffmpeg, ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=320x240", "-frames:v", "1", image]);

const currentTime = (video: Locator) => video.evaluate((el: HTMLVideoElement) => el.currentTime);
const threads = (page: Page) => page.getByRole("list", { name: "Комментарии к версии" }).getByTestId("review-comment");
const thread = (page: Page, text: string) => threads(page).filter({ hasText: text });

/** Opens the viewer and waits until the player knows the clip's length (a seek before that is lost). */
async function openViewer(page: Page, account: { login: string; password: string }, url: string) {
  await openSignedIn(page, account, url);
  const video = page.locator("video");
  await expect.poll(() => video.evaluate((el: HTMLVideoElement) => el.readyState), { timeout: 15_000 }).toBeGreaterThanOrEqual(1);
  return video;
}

test("comments at a frame with «Комментарий», replies, resolve, the filter and the approval bar; a reader's controls", async ({
  page,
  browser,
}) => {
  // One clip for the whole story: the upload, its probe (the frame rate) and three screens take a while on a busy machine.
  test.setTimeout(240_000);
  const seed = await Seeder.admin();
  const groupId = await seed.group(unique("Согласование"));
  const assetId = await seed.uploadInto(groupId, clip, "video/mp4");
  const suffix = unique("").trim();
  const reader = { login: `r-${suffix}`, password: `Pw-${suffix}-long`, name: `Рецензент ${suffix}` };
  const { user_id: readerId } = await seed.call("/api/user", {
    json: { user_name: reader.name, user_login: reader.login, user_passwd: reader.password, enabled: true },
  });
  await seed.call("/api/user/acl", { json: { subj: readerId, obj: groupId, acl: ["read"] } });

  // The version's frame rate comes from the transcoder's probe of the upload; the panel counts frames at it.
  const comments = () => seed.call(`/api/review/comments?asset_id=${assetId}`);
  await expect.poll(async () => (await comments()).rate, { timeout: 150_000, intervals: [2000] }).toEqual({ fps_num: FPS, fps_den: 1 });
  // Another comment, earlier in the clip, and a request for approval naming the reader, both through the API.
  await seed.call("/api/review/comments", { json: { asset_id: assetId, body: "Звук тихий", at: { frame: 10, fps_num: FPS, fps_den: 1 } } });
  await seed.call("/api/review/requests", { json: { asset_id: assetId, reviewers: [readerId] } });

  const url = `/mam/${groupId}/asset/${assetId}`;
  const video = await openViewer(page, ADMIN, url);
  const bar = page.getByRole("region", { name: "Согласование" });
  await expect(bar.getByTestId("approval-status")).toHaveText("Ожидает");
  await expect(bar.getByTestId("approval-reviewer")).toHaveText(`${reader.name}: Ожидает`);
  await expect(threads(page)).toHaveCount(1);
  await expect(thread(page, "Звук тихий").getByTestId("review-timecode")).toHaveText("00:00:00:10");

  // At 2.2 s the player shows frame 55: 00:00:02:05 at 25 fps.
  await video.evaluate((el: HTMLVideoElement) => {
    el.currentTime = 2.2;
  });
  await expect(page.getByTestId("review-playhead")).toHaveText("на 00:00:02:05");
  // "." and "," step one frame forward and back; C (outside a text box) puts the cursor in the comment box.
  await page.getByRole("heading", { name: "Комментарии" }).click();
  await page.keyboard.press(".");
  await expect(page.getByTestId("review-playhead")).toHaveText("на 00:00:02:06");
  await page.keyboard.press(",");
  await page.keyboard.press(",");
  await expect(page.getByTestId("review-playhead")).toHaveText("на 00:00:02:04");
  await page.keyboard.press(".");
  await expect(page.getByTestId("review-playhead")).toHaveText("на 00:00:02:05");
  await page.keyboard.press("c");
  const box = page.getByRole("textbox", { name: "Текст комментария" });
  await expect(box).toBeFocused();
  await expect(box).toHaveValue("");
  await box.fill("Логотип съехал");
  await page.getByRole("button", { name: "Комментарий", exact: true }).click();
  await expect(threads(page)).toHaveCount(2);
  await expect(box).toHaveValue("");
  // The API's time order: the earlier comment first.
  await expect(threads(page).nth(1)).toContainText("Логотип съехал");
  await expect(thread(page, "Логотип съехал").getByTestId("review-timecode")).toHaveText("00:00:02:05");
  const saved = (await comments()).items.find((c: { body: string }) => c.body === "Логотип съехал");
  expect(saved.at).toMatchObject({ frame: 55, fps_num: FPS, fps_den: 1, timecode: "00:00:02:05" });

  // After a reload the comment is there; a click on it seeks the paused player to its frame.
  await reloadSignedIn(page);
  await expect.poll(() => video.evaluate((el: HTMLVideoElement) => el.readyState), { timeout: 15_000 }).toBeGreaterThanOrEqual(1);
  const logo = thread(page, "Логотип съехал");
  await expect(logo.getByTestId("review-timecode")).toHaveText("00:00:02:05");
  expect(await currentTime(video)).toBe(0);
  await logo.getByTestId("review-seek").click();
  await expect.poll(async () => Math.abs((await currentTime(video)) - saved.at.seconds)).toBeLessThan(1 / FPS);
  expect(await video.evaluate((el: HTMLVideoElement) => el.paused)).toBe(true);
  // The marker of the earlier comment on the bar seeks there too.
  await page.getByTestId("review-markers").getByRole("button", { name: "Перейти к 00:00:00:10" }).click();
  await expect.poll(async () => Math.abs((await currentTime(video)) - 10 / FPS)).toBeLessThan(1 / FPS);

  // A reply under the comment, then «Решено».
  await logo.getByRole("button", { name: "Ответить" }).click();
  await logo.getByRole("textbox", { name: "Текст ответа" }).fill("Поправлю в следующей версии");
  await logo.getByRole("button", { name: "Отправить" }).click();
  await expect(logo.getByTestId("review-reply")).toContainText("Поправлю в следующей версии");
  await logo.getByRole("button", { name: "Решено" }).click();
  await expect(logo).toHaveAttribute("data-resolved", "true");
  await expect(logo.getByRole("button", { name: "Открыть снова" })).toBeVisible();
  const stored = (await comments()).items.find((c: { body: string }) => c.body === "Логотип съехал");
  expect(stored).toMatchObject({ resolved: true, replies: [{ body: "Поправлю в следующей версии" }] });

  // The filter: open ones hide the resolved comment, resolved ones show only it.
  const filter = page.getByRole("radiogroup", { name: "Показать комментарии" });
  await filter.getByText("Открытые").click();
  await expect(threads(page)).toHaveCount(1);
  await expect(threads(page).first()).toContainText("Звук тихий");
  await filter.getByText("Решённые").click();
  await expect(threads(page)).toHaveCount(1);
  await expect(threads(page).first()).toContainText("Логотип съехал");
  await filter.getByText("Мои").click();
  await expect(threads(page)).toHaveCount(2);

  // «Одобрить» by the admin (update on the file): one approval is enough by the default rule.
  await bar.getByRole("button", { name: "Одобрить" }).click();
  await expect(bar.getByTestId("approval-status")).toHaveText("Одобрено");
  expect((await seed.call(`/api/review/approval/${assetId}`)).overall).toBe("approved");

  // The reader (read only, asked to approve): replies, but resolves and deletes nobody's comment; decides.
  const context = await browser.newContext({ baseURL: base, locale: "ru-RU" });
  try {
    const readerPage = await context.newPage();
    await openViewer(readerPage, reader, url);
    const open = thread(readerPage, "Звук тихий");
    await expect(open).toBeVisible();
    await expect(open.getByRole("button", { name: "Ответить" })).toBeVisible();
    await expect(open.getByRole("button", { name: "Решено" })).toHaveCount(0);
    await expect(open.getByRole("button", { name: "Удалить комментарий" })).toHaveCount(0);
    await expect(thread(readerPage, "Логотип съехал").getByRole("button", { name: "Открыть снова" })).toHaveCount(0);
    await readerPage.getByRole("radiogroup", { name: "Показать комментарии" }).getByText("Мои").click();
    await expect(threads(readerPage)).toHaveCount(0);
    // A request for changes outweighs an approval.
    const readerBar = readerPage.getByRole("region", { name: "Согласование" });
    await expect(readerBar.getByTestId("approval-status")).toHaveText("Одобрено");
    await readerBar.getByRole("button", { name: "Нужны правки" }).click();
    await expect(readerBar.getByTestId("approval-status")).toHaveText("Нужны правки");
    await expect(readerBar.getByTestId("approval-reviewer").filter({ hasText: reader.name })).toHaveText(`${reader.name}: Нужны правки`);
  } finally {
    await context.close();
  }

  // The author deletes their comment (after confirming): it goes from the panel and the API's list.
  page.once("dialog", (dialog) => dialog.accept());
  await thread(page, "Звук тихий").getByRole("button", { name: "Удалить комментарий" }).click();
  await expect(threads(page)).toHaveCount(1);
  expect((await comments()).items.map((c: { body: string }) => c.body)).toEqual(["Логотип съехал"]);
});

test("an image's comment is on the whole picture: no time, no timecode", async ({ page }) => {
  const seed = await Seeder.admin();
  const groupId = await seed.group(unique("Согласование картинки"));
  const assetId = await seed.uploadInto(groupId, image, "image/png");
  await openSignedIn(page, ADMIN, `/mam/${groupId}/asset/${assetId}`);
  await expect(page.getByRole("img", { name: "кадр.png" })).toBeVisible();
  await expect(page.getByTestId("review-playhead")).toHaveCount(0);
  await page.getByRole("textbox", { name: "Текст комментария" }).fill("Фон темноват");
  await page.getByRole("button", { name: "Комментарий", exact: true }).click();
  await expect(thread(page, "Фон темноват")).toBeVisible();
  await expect(thread(page, "Фон темноват").getByTestId("review-timecode")).toHaveCount(0);
  const { items } = await seed.call(`/api/review/comments?asset_id=${assetId}`);
  expect(items).toMatchObject([{ body: "Фон темноват", at: null, version: 1 }]);
});
