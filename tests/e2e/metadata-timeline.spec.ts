import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { makeClip } from "../media/media";
import { Seeder, unique } from "./browse-seed";
import { ADMIN, expect, gotoSignedIn, test } from "./fixtures";

/**
 * Time-coded values on a video's timeline (decision 038): I and O set in and out at the playhead, Enter saves a value
 * of the chosen field over that range, and a click on the value seeks the player to its start.
 */

test.use({ signedInAs: ADMIN });

const currentTime = (page: import("@playwright/test").Page) => page.locator("video").evaluate((el: HTMLVideoElement) => el.currentTime);
const seekTo = (page: import("@playwright/test").Page, at: number) =>
  page.locator("video").evaluate(async (el: HTMLVideoElement, t) => {
    el.currentTime = t;
    await new Promise((resolve) => el.addEventListener("seeked", resolve, { once: true }));
  }, at);

test("a range is marked with I and O on a generated video and a click on it seeks the player", async ({ page }) => {
  test.setTimeout(90_000);
  const seed = await Seeder.admin();
  const field = unique("Сюжет");
  await seed.call("/api/fields/templates", { json: { field_def_name: field, field_type: "text" } });
  const groupId = await seed.group(unique("Ролики"));
  const clip = makeClip(path.join(mkdtempSync(path.join(tmpdir(), "mam-timeline-")), "ролик.mp4"), 6, 320, 240);
  const assetId = await seed.uploadInto(groupId, clip, "video/mp4");

  await gotoSignedIn(page, `/mam/${groupId}/asset/${assetId}`);
  const timeline = page.getByRole("region", { name: "Метки по времени" });
  await expect(timeline.getByText("Меток нет")).toBeVisible();
  await expect.poll(() => page.locator("video").evaluate((el: HTMLVideoElement) => el.readyState)).toBeGreaterThan(0);

  await timeline.getByRole("textbox", { name: "Поле метки" }).click();
  await page.getByRole("option", { name: field }).click();
  await timeline.getByRole("textbox", { name: field }).fill("Интервью с героем");
  // The keys belong to the page, not to a text box.
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());

  await seekTo(page, 1);
  await page.keyboard.press("i");
  await seekTo(page, 3.5);
  await page.keyboard.press("o");
  await expect(timeline.getByTestId("timeline-in")).toContainText("00:00:01");
  await expect(timeline.getByTestId("timeline-out")).toContainText("00:00:03");
  await page.keyboard.press("Enter");
  await expect(page.getByText("Метка сохранена")).toBeVisible();
  const row = timeline.getByTestId("timeline-value").filter({ hasText: field });
  await expect(row).toContainText("00:00:01–00:00:03");
  await expect(row).toContainText("Интервью с героем");

  const stored = (await seed.call(`/api/fields/for-entity/${assetId}?entity_type=asset`)) as {
    pts: [number, number] | null;
    field_data: unknown;
  }[];
  expect(stored).toHaveLength(1);
  expect(stored[0].pts?.[0]).toBeCloseTo(1, 1);
  expect(stored[0].pts?.[1]).toBeCloseTo(3.5, 1);

  await seekTo(page, 5);
  await timeline.getByRole("button", { name: new RegExp(`^${field}: 00:00:01`) }).click();
  await expect.poll(() => currentTime(page)).toBeCloseTo(1, 1);
});

test("a region value is drawn over the picture while the playhead is inside its time code", async ({ page }) => {
  test.setTimeout(90_000);
  const seed = await Seeder.admin();
  const field = unique("Лицо");
  const defId = (
    await seed.call<{ field_def_id: string }>("/api/fields/templates", { json: { field_def_name: field, field_type: "region" } })
  ).field_def_id;
  const groupId = await seed.group(unique("Кадры"));
  const clip = makeClip(path.join(mkdtempSync(path.join(tmpdir(), "mam-region-")), "кадр.mp4"), 6, 320, 240);
  const assetId = await seed.uploadInto(groupId, clip, "video/mp4");
  const region = { x: 0.25, y: 0.25, w: 0.5, h: 0.5 };
  await seed.call("/api/fields/create", {
    json: { entity_id: assetId, entity_type: "asset", def_id: defId, field_data: region, pts: [1, 3] },
  });

  await gotoSignedIn(page, `/mam/${groupId}/asset/${assetId}`);
  await expect.poll(() => page.locator("video").evaluate((el: HTMLVideoElement) => el.readyState)).toBeGreaterThan(0);
  await seekTo(page, 2);
  const box = page.getByTestId("region");
  await expect(box).toBeVisible();
  // Half the picture's width and height, whatever size the player is drawn at.
  const [drawn, picture] = await Promise.all([
    box.boundingBox(),
    page.locator("video").evaluate((el: HTMLVideoElement) => {
      const r = el.getBoundingClientRect();
      const scale = Math.min(r.width / el.videoWidth, r.height / el.videoHeight);
      return { width: el.videoWidth * scale, height: el.videoHeight * scale };
    }),
  ]);
  expect(drawn?.width).toBeCloseTo(picture.width / 2, -1);
  expect(drawn?.height).toBeCloseTo(picture.height / 2, -1);
  await seekTo(page, 5);
  await expect(box).toHaveCount(0);
});
