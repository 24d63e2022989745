import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Page } from "@playwright/test";
import { makeClip } from "../media/media";
import { Seeder, unique } from "./browse-seed";
import { ADMIN, expect, openSignedIn, test } from "./fixtures";

/**
 * An external reviewer in Chromium (issue 38, docs/decisions/061-review-and-approval.md "External reviewers"): the
 * admin asks an address that is nobody's login to review; the link from the API's answer opens in a fresh context
 * (no session, no cookies), where the guest gives a name, comments at a frame and approves; the admin's viewer then
 * shows the comment under that name and the approval.
 */

const FPS = 25;
const dir = mkdtempSync(path.join(tmpdir(), "mam-review-guest-"));
const clip = makeClip(path.join(dir, "ролик-гостю.mp4"), 4, 320, 240, FPS);

const readyVideo = async (page: Page) => {
  const video = page.locator("video");
  await expect.poll(() => video.evaluate((el: HTMLVideoElement) => el.readyState), { timeout: 15_000 }).toBeGreaterThanOrEqual(1);
  return video;
};

test("a guest of a review link names themself, comments at a frame and approves; the team's viewer shows both", async ({
  page,
  browser,
}) => {
  test.setTimeout(240_000);
  const seed = await Seeder.admin();
  const groupId = await seed.group(unique("Внешнее согласование"));
  const assetId = await seed.uploadInto(groupId, clip, "video/mp4");
  // The link goes out as soon as the file is in, before the transcoder has made the proxy a guest is shown.
  const address = `guest-${unique("").trim().toLowerCase()}@outside.example`;
  const asked = await seed.call("/api/review/requests", { json: { asset_id: assetId, reviewers: [address] } });
  expect(asked.links).toHaveLength(1);
  expect(asked.links[0].email).toBe(address);
  const link: string = asked.links[0].url;

  const guestContext = await browser.newContext();
  try {
    const guest = await guestContext.newPage();
    const opened = await guest.goto(link);
    expect(opened?.headers()["cache-control"]).toBe("private, no-store");
    await expect(guest.getByRole("heading", { name: "ролик-гостю.mp4" })).toBeVisible();
    // A guest is shown a proxy, never the original. A page opened before it was made says so, and gets the player
    // when the proxy is registered (the live room tells it), without a reload.
    if (await guest.getByText("Просмотр этого файла пока недоступен.").isVisible())
      test.info().annotations.push({ type: "guest page", description: "opened before the proxy; the player came without a reload" });
    await expect(guest.getByTestId("guest-player")).toBeVisible({ timeout: 150_000 });
    await readyVideo(guest);
    // The version's rate comes from the transcoder's probe; the guest's comment is counted at it.
    const comments = () => seed.call(`/api/review/comments?asset_id=${assetId}`);
    await expect.poll(async () => (await comments()).rate, { timeout: 150_000, intervals: [2000] }).toEqual({ fps_num: FPS, fps_den: 1 });

    // The name, once: the page then says who is speaking and offers the comment box.
    await guest.getByLabel("Ваше имя").fill("Ольга Гостева");
    await guest.getByRole("button", { name: "Продолжить" }).click();
    await expect(guest.getByText("Вы — Ольга Гостева")).toBeVisible();

    // At 2.2 s the player shows frame 55: 00:00:02:05 at 25 fps.
    const video = await readyVideo(guest);
    await video.evaluate((el: HTMLVideoElement) => {
      el.pause();
      el.currentTime = 2.2;
    });
    await expect.poll(() => video.evaluate((el: HTMLVideoElement) => el.currentTime)).toBeCloseTo(2.2, 2);
    await guest.getByLabel("Комментарий к текущему кадру").fill("Логотип перекрывает титр");
    await guest.getByRole("button", { name: "Комментарий", exact: true }).click();
    const mine = guest.getByTestId("guest-comment").filter({ hasText: "Логотип перекрывает титр" });
    await expect(mine).toContainText("Ольга Гостева");
    await expect(mine).toContainText("00:00:02:05");

    await guest.getByRole("button", { name: "Одобрить" }).click();
    await expect(guest.getByTestId("guest-decision")).toHaveText("Ваше решение: Одобрено");
  } finally {
    await guestContext.close();
  }

  // The team's viewer: the guest's comment under the given name at its frame, and the approval.
  await openSignedIn(page, ADMIN, `/mam/${groupId}/asset/${assetId}`);
  const thread = page.getByTestId("review-comment").filter({ hasText: "Логотип перекрывает титр" });
  await expect(thread).toContainText("Ольга Гостева");
  await expect(thread.getByTestId("review-timecode")).toHaveText("00:00:02:05");
  const bar = page.getByRole("region", { name: "Согласование" });
  await expect(bar.getByTestId("approval-status")).toHaveText("Одобрено");
  await expect(bar.getByTestId("approval-reviewer")).toHaveText("Ольга Гостева: Одобрено");
});
