import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Page } from "@playwright/test";
import { makeClip } from "../media/media";
import { Seeder, unique } from "./browse-seed";
import { ADMIN, expect, openSignedIn, test } from "./fixtures";

/**
 * The review link's page is live (docs/decisions/061-review-and-approval.md "Guests in the live room"): with the
 * guest's page already open in a context of its own (no session), the admin comments in the viewer; the comment
 * appears on the guest's page without a reload, a comment «Только для команды» made before it never does; the guest's
 * «Одобрить» shows in the admin's approval bar without a reload either.
 */

const FPS = 25;
const dir = mkdtempSync(path.join(tmpdir(), "mam-review-guest-live-"));
const clip = makeClip(path.join(dir, "гостю-вживую.mp4"), 4, 320, 240, FPS);

const readyVideo = async (page: Page) => {
  const video = page.locator("video");
  // The proxy may still be in the making on a busy machine: the player gets its source once it is there.
  await expect.poll(() => video.evaluate((el: HTMLVideoElement) => el.readyState), { timeout: 60_000 }).toBeGreaterThanOrEqual(1);
  return video;
};
/** A mark on the page that a reload would wipe. */
const markPage = (page: Page) =>
  page.evaluate(() => {
    (window as unknown as { notReloaded: boolean }).notReloaded = true;
  });
const notReloaded = (page: Page) => page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded);

test("the guest's page shows the team's comments as they come, never an internal one, and the team sees the guest's decision", async ({
  page,
  browser,
}) => {
  test.setTimeout(240_000);
  const seed = await Seeder.admin();
  const groupId = await seed.group(unique("Гость вживую"));
  const assetId = await seed.uploadInto(groupId, clip, "video/mp4");
  await expect
    .poll(async () => (await seed.call(`/api/review/comments?asset_id=${assetId}`)).rate, { timeout: 150_000, intervals: [2000] })
    .toEqual({ fps_num: FPS, fps_den: 1 });
  const address = `guest-${unique("").trim().toLowerCase()}@outside.example`;
  const asked = await seed.call("/api/review/requests", { json: { asset_id: assetId, reviewers: [address] } });
  const link: string = asked.links[0].url;

  await openSignedIn(page, ADMIN, `/mam/${groupId}/asset/${assetId}`);
  await readyVideo(page);
  const bar = page.getByRole("region", { name: "Согласование" });
  await expect(bar.getByTestId("approval-status")).not.toHaveText("Одобрено");

  const guestContext = await browser.newContext();
  try {
    const guest = await guestContext.newPage();
    await guest.goto(link);
    await readyVideo(guest);
    await guest.getByLabel("Ваше имя").fill("Пётр Гостев");
    await guest.getByRole("button", { name: "Продолжить" }).click();
    await expect(guest.getByText("Вы — Пётр Гостев")).toBeVisible();
    // The guest is in the room before the team speaks: the admin's viewer lists them, by the name they gave.
    await expect(page.getByTestId("review-watcher")).toHaveCount(1, { timeout: 30_000 });
    await expect(page.getByTestId("review-watcher")).toContainText("Пётр Гостев");
    await markPage(guest);
    await markPage(page);
    const guestComments = guest.getByTestId("guest-comment");

    // First a comment for the team only, then one for everyone: once the second is on the guest's page, the first
    // would have come before it over the same socket, so its absence means the room held it back.
    const text = page.getByRole("textbox", { name: "Текст комментария" });
    await text.fill("Бюджет на пересъёмку");
    await page.getByLabel("Только для команды").check();
    await page.getByRole("button", { name: "Комментарий", exact: true }).click();
    const teamThreads = page.getByRole("list", { name: "Комментарии к версии" }).getByTestId("review-comment");
    await expect(teamThreads.filter({ hasText: "Бюджет на пересъёмку" }).getByTestId("review-internal")).toBeVisible();

    await text.fill("Поправьте цвет неба");
    await page.getByLabel("Только для команды").uncheck();
    await page.getByRole("button", { name: "Комментарий", exact: true }).click();
    const open = teamThreads.filter({ hasText: "Поправьте цвет неба" });
    await expect(open).toBeVisible();
    await expect(open.getByTestId("review-internal")).toHaveCount(0);

    await expect(guestComments.filter({ hasText: "Поправьте цвет неба" })).toBeVisible({ timeout: 30_000 });
    await expect(guestComments.filter({ hasText: "Бюджет на пересъёмку" })).toHaveCount(0);
    await expect(guestComments).toHaveCount(1);
    expect(await notReloaded(guest)).toBe(true);

    // The guest approves: the admin's bar shows it as it happens.
    await guest.getByRole("button", { name: "Одобрить" }).click();
    await expect(guest.getByTestId("guest-decision")).toHaveText("Ваше решение: Одобрено");
    await expect(bar.getByTestId("approval-reviewer").filter({ hasText: "Пётр Гостев" })).toHaveText("Пётр Гостев: Одобрено", {
      timeout: 30_000,
    });
    expect(await notReloaded(page)).toBe(true);
    // Still no internal comment after the guest's page reloaded its data for the form.
    await expect(guestComments.filter({ hasText: "Поправьте цвет неба" })).toBeVisible();
    await expect(guestComments.filter({ hasText: "Бюджет на пересъёмку" })).toHaveCount(0);
  } finally {
    await guestContext.close();
  }
});
