import type { Page } from "@playwright/test";
import { Seeder, unique } from "./browse-seed";
import { ADMIN, expect, openSignedIn, test } from "./fixtures";

/**
 * The signed-in screens on a phone (390×844, docs/decisions/057-readable-history.md): the sections behind «Меню»,
 * the group tree in a drawer, the contents one column with names, and no screen wider than the phone.
 */

test.use({ viewport: { width: 390, height: 844 } });

/** Nothing scrolls sideways: the page is no wider than the viewport. */
async function expectNoSideScroll(page: Page) {
  await expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth))
    .toBeLessThanOrEqual(0);
}

test("on a phone: a group from the drawer, an asset and search, none scrolling sideways", async ({ page }) => {
  // Several screens in one test on a shared, busy machine.
  test.slow();
  const seed = await Seeder.admin();
  const token = `p${Date.now().toString().slice(-7)}`;
  const groupName = unique("Телефон");
  const group = await seed.group(groupName);
  const assetName = `Интервью с министром культуры ${token}.mp4`;
  await seed.call("/api/asset/create-list", { json: { assets: [{ asset_name: assetName, asset_mime: "video/mp4", in_group: group }] } });

  await openSignedIn(page, ADMIN, "/mam");
  // The header keeps the title; the sections are behind «Меню».
  await expect(page.getByRole("link", { name: "Поиск" })).toBeHidden();
  await page.getByRole("button", { name: "Меню" }).click();
  await expect(page.getByRole("link", { name: "Поиск" })).toBeVisible();
  await page.getByRole("button", { name: "Меню" }).click();
  await expectNoSideScroll(page);

  // The tree is a drawer: open it, pick the group, and the contents show the asset's name.
  await page.getByRole("button", { name: "Группы" }).click();
  const drawer = page.getByRole("dialog", { name: "Группы" });
  await drawer.getByText(groupName, { exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/mam/${group}`));
  await expect(drawer).toBeHidden();
  const row = page.getByRole("listitem").filter({ hasText: assetName });
  const link = row.getByRole("link", { name: assetName });
  await expect(link).toBeVisible();
  // The name has room to be read, not a sliver beside the tree.
  expect((await link.boundingBox())?.width ?? 0).toBeGreaterThan(150);
  await expectNoSideScroll(page);

  // The asset: the viewer at full width.
  await link.click();
  await expect(page).toHaveURL(/\/asset\/[0-9a-f-]{36}$/);
  await expect(page.getByText(assetName).first()).toBeVisible();
  await expectNoSideScroll(page);

  // Search, through the menu.
  await page.getByRole("button", { name: "Меню" }).click();
  await page.getByRole("link", { name: "Поиск" }).click();
  await expect(page).toHaveURL(/\/search/);
  await page.getByRole("textbox", { name: "Поиск" }).fill(token);
  await page.getByRole("textbox", { name: "Поиск" }).press("Enter");
  const results = page.getByRole("list", { name: "Поиск" }).getByRole("listitem");
  await expect(results.filter({ hasText: assetName })).toHaveCount(1, { timeout: 30_000 });
  await expectNoSideScroll(page);

  // Jobs and the admin's journal too.
  for (const path of ["/jobs", "/admin/events", "/admin"]) {
    await page.goto(path);
    await expect(page.getByRole("button", { name: "Меню" })).toBeVisible();
    await expectNoSideScroll(page);
  }
});
