import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Locator, Page, WebSocketRoute } from "@playwright/test";
import { ffmpeg, makeClip } from "../media/media";
import { Seeder, unique } from "./browse-seed";
import { ADMIN, expect, openSignedIn, signedInPage, test } from "./fixtures";

/**
 * The live review room in two browsers (issue 38 "Live", docs/decisions/061-review-and-approval.md): the admin
 * comments at a frame; the reader, on the same asset in another context, sees the comment appear without reloading
 * and, clicking it, lands on the same frame; the admin's paused frame shows beside their name; a decision shows too.
 */

const FPS = 25;
const dir = mkdtempSync(path.join(tmpdir(), "mam-review-live-"));
const clip = makeClip(path.join(dir, "совместно.mp4"), 4, 320, 240, FPS);
const image = path.join(dir, "кадр.png");
execFileSync(ffmpeg, ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=320x240", "-frames:v", "1", image]);

const threads = (page: Page) => page.getByRole("list", { name: "Комментарии к версии" }).getByTestId("review-comment");
const readyVideo = async (page: Page) => {
  const video = page.locator("video");
  // The proxy may still be in the making on a busy machine: the player gets its source once it is there.
  await expect.poll(() => video.evaluate((el: HTMLVideoElement) => el.readyState), { timeout: 60_000 }).toBeGreaterThanOrEqual(1);
  return video;
};
/** The frame a paused player shows (the one whose display has begun), at the clip's rate. */
const frameOf = (video: Locator) => video.evaluate((el: HTMLVideoElement, fps) => Math.floor(el.currentTime * fps + 0.01), FPS);

test("a comment at a frame appears in the other viewer without reloading and seeks it to the same frame", async ({ page, browser }) => {
  test.setTimeout(240_000);
  const seed = await Seeder.admin();
  const groupId = await seed.group(unique("Вместе"));
  const assetId = await seed.uploadInto(groupId, clip, "video/mp4");
  const suffix = unique("").trim();
  const reader = { login: `live-${suffix}`, password: `Pw-${suffix}-long`, name: `Зритель ${suffix}` };
  const { user_id: readerId } = await seed.call("/api/user", {
    json: { user_name: reader.name, user_login: reader.login, user_passwd: reader.password, enabled: true },
  });
  await seed.call("/api/user/acl", { json: { subj: readerId, obj: groupId, acl: ["read"] } });
  await expect
    .poll(async () => (await seed.call(`/api/review/comments?asset_id=${assetId}`)).rate, { timeout: 150_000, intervals: [2000] })
    .toEqual({ fps_num: FPS, fps_den: 1 });

  const url = `/mam/${groupId}/asset/${assetId}`;
  await openSignedIn(page, ADMIN, url);
  const video = await readyVideo(page);
  const other = await signedInPage(browser, reader, url);
  try {
    const readerPage = other.page;
    const readerVideo = await readyVideo(readerPage);
    // Both are in the room: each sees the other among those watching.
    await expect(page.getByTestId("review-watcher")).toContainText(reader.name);
    await expect(readerPage.getByTestId("review-watcher")).toHaveCount(1);
    // A mark on the reader's page that a reload would wipe.
    await readerPage.evaluate(() => {
      (window as unknown as { notReloaded: boolean }).notReloaded = true;
    });

    // The admin pauses at 2.2 s (frame 55): the reader sees that frame beside the admin's name.
    await video.evaluate((el: HTMLVideoElement) => {
      el.pause();
      el.currentTime = 2.2;
    });
    await expect(page.getByTestId("review-playhead")).toHaveText("на 00:00:02:05");
    await expect(readerPage.getByTestId("review-watcher")).toContainText("(00:00:02:05)");

    await page.getByRole("textbox", { name: "Текст комментария" }).fill("Титр раньше времени");
    await page.getByRole("button", { name: "Комментарий", exact: true }).click();
    await expect(threads(page).filter({ hasText: "Титр раньше времени" })).toBeVisible();

    const arrived = threads(readerPage).filter({ hasText: "Титр раньше времени" });
    await expect(arrived).toBeVisible();
    await expect(arrived.getByTestId("review-timecode")).toHaveText("00:00:02:05");
    expect(await frameOf(readerVideo)).toBe(0);
    await arrived.getByTestId("review-seek").click();
    await expect.poll(() => frameOf(readerVideo)).toBe(55);
    expect(await readerVideo.evaluate((el: HTMLVideoElement) => el.paused)).toBe(true);

    // The admin resolves it and approves the version: both show on the reader's screen as they happen.
    await threads(page).filter({ hasText: "Титр раньше времени" }).getByRole("button", { name: "Решено" }).click();
    await expect(arrived).toHaveAttribute("data-resolved", "true");
    await page.getByRole("region", { name: "Согласование" }).getByRole("button", { name: "Одобрить" }).click();
    await expect(readerPage.getByRole("region", { name: "Согласование" }).getByTestId("approval-status")).toHaveText("Одобрено");
    expect(await readerPage.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
  } finally {
    await other.context.close();
  }
});

test("after the room drops the socket, the viewer comes back with a fresh ticket and hears the room again", async ({ page }) => {
  const seed = await Seeder.admin();
  const groupId = await seed.group(unique("Обрыв"));
  const assetId = await seed.uploadInto(groupId, image, "image/png");
  // The page's sockets pass through here to the Worker's room, so the test can drop one as a network would. A socket
  // is in the room once the room has spoken on it (its list of watchers comes on joining).
  const sockets: WebSocketRoute[] = [];
  const joined: boolean[] = [];
  await page.routeWebSocket(/\/api\/review\/live\//, (ws) => {
    const n = sockets.push(ws) - 1;
    ws.connectToServer().onMessage((message) => {
      joined[n] = true;
      ws.send(message);
    });
  });
  const tickets: string[] = [];
  page.on("request", (r) => {
    if (r.method() === "POST" && r.url().includes("/api/review/live-ticket/")) tickets.push(r.url());
  });
  const comment = (body: string) => seed.call("/api/review/comments", { json: { asset_id: assetId, body } });

  await openSignedIn(page, ADMIN, `/mam/${groupId}/asset/${assetId}`);
  await expect.poll(() => joined[0]).toBe(true);
  // One ticket, the one that came with the page's data, opened the first socket.
  expect(tickets).toHaveLength(1);
  await comment("До обрыва");
  await expect(threads(page).filter({ hasText: "До обрыва" })).toBeVisible();

  await sockets[0].close({ code: 1011, reason: "обрыв" });
  await expect.poll(() => joined[1], { timeout: 20_000 }).toBe(true);
  expect(tickets).toHaveLength(2);
  await comment("После обрыва");
  await expect(threads(page).filter({ hasText: "После обрыва" })).toBeVisible();
});
