import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { makeClip } from "../media/media";
import { base, Seeder, unique } from "./browse-seed";
import { expect, openSignedIn, test } from "./fixtures";

/**
 * «Входящие» (issue 38, docs/decisions/061-review-and-approval.md «Inbox») in Chromium: user A mentions @B in a
 * comment made with «Комментарий» at a frame; B's navigation counts it unread, the inbox lists it, and a click
 * opens the viewer on that version at the comment's moment and marks it read.
 */

const FPS = 25;
const dir = mkdtempSync(path.join(tmpdir(), "mam-inbox-"));
const clip = makeClip(path.join(dir, "ролик.mp4"), 4, 320, 240, FPS);

test("a mention of @B in A's comment reaches B's inbox with the unread count; a click opens the viewer at that moment", async ({
  page,
  browser,
}) => {
  // The upload's probe (the frame rate the panel counts in) takes a while on a busy machine.
  test.setTimeout(240_000);
  const seed = await Seeder.admin();
  const groupId = await seed.group(unique("Входящие"));
  const assetId = await seed.uploadInto(groupId, clip, "video/mp4");
  const suffix = unique("").trim();
  const person = async (tag: string, name: string) => {
    const account = { login: `${tag}-${suffix}`, password: `Pw-${tag}-${suffix}-long`, name: `${name} ${suffix}` };
    const { user_id } = await seed.call("/api/user", {
      json: { user_name: account.name, user_login: account.login, user_passwd: account.password, enabled: true },
    });
    // download: the original plays before the proxy is made (a reader alone gets proxies only).
    await seed.call("/api/user/acl", { json: { subj: user_id, obj: groupId, acl: ["read", "download"] } });
    return account;
  };
  const a = await person("a", "Автор");
  const b = await person("b", "Адресат");
  await expect
    .poll(async () => (await seed.call(`/api/review/comments?asset_id=${assetId}`)).rate, { timeout: 150_000, intervals: [2000] })
    .toEqual({ fps_num: FPS, fps_den: 1 });

  // A comments at 2.2 s (frame 55), naming @B.
  await openSignedIn(page, a, `/mam/${groupId}/asset/${assetId}`);
  const video = page.locator("video");
  await expect.poll(() => video.evaluate((el: HTMLVideoElement) => el.readyState), { timeout: 15_000 }).toBeGreaterThanOrEqual(1);
  await video.evaluate((el: HTMLVideoElement) => {
    el.currentTime = 2.2;
  });
  await expect(page.getByTestId("review-playhead")).toHaveText("на 00:00:02:05");
  await page.getByRole("textbox", { name: "Текст комментария" }).fill(`@${b.login} логотип съехал`);
  await page.getByRole("button", { name: "Комментарий", exact: true }).click();
  await expect(page.getByTestId("review-comment").filter({ hasText: "логотип съехал" })).toBeVisible();
  // The author hears nothing of their own comment.
  await expect(page.getByTestId("inbox-count")).toHaveCount(0);

  const context = await browser.newContext({ baseURL: base, locale: "ru-RU" });
  try {
    const bPage = await context.newPage();
    await openSignedIn(bPage, b, "/mam");
    const nav = bPage.getByRole("navigation", { name: "Медиа-архив" });
    await expect(nav.getByTestId("inbox-count")).toHaveText("1");
    await nav.getByRole("link", { name: /Входящие/ }).click();
    await expect(bPage).toHaveURL(/\/inbox$/);
    await expect(bPage.getByTestId("inbox-unread")).toHaveText("1 непрочитанное");
    const item = bPage.getByTestId("inbox-item");
    await expect(item).toHaveCount(1);
    await expect(item).toHaveAttribute("data-read", "false");
    await expect(item).toContainText(`${a.name} упомянул(а) вас`);
    await expect(item).toContainText(`@${b.login} логотип съехал`);
    await expect(item.getByTestId("inbox-open")).toHaveText(/ролик\.mp4 · версия 1 · на 00:00:02:05/);

    // The click opens the viewer on that version at the comment's frame, and the item is read.
    await item.getByTestId("inbox-open").click();
    await expect(bPage).toHaveURL(new RegExp(`/mam/${groupId}/asset/${assetId}\\?v=1&t=2\\.2$`));
    const bVideo = bPage.locator("video");
    await expect.poll(() => bVideo.evaluate((el: HTMLVideoElement) => el.currentTime), { timeout: 15_000 }).toBeCloseTo(2.2, 3);
    await expect(bPage.getByTestId("review-playhead")).toHaveText("на 00:00:02:05");
    await expect(nav.getByTestId("inbox-count")).toHaveCount(0);
    await bPage.goBack();
    await expect(bPage.getByTestId("inbox-item")).toHaveAttribute("data-read", "true");
    await expect(bPage.getByTestId("inbox-unread")).toHaveText("0 непрочитанных");
  } finally {
    await context.close();
  }
});
