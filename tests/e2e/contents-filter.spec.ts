import { Seeder, unique } from "./browse-seed";
import type { Page, Route } from "@playwright/test";
import { createPlainUser, expect, openSignedIn, reloadSignedIn, test } from "./fixtures";

/** «Фильтр по имени» over a group's contents: narrowed by the server as one types, kept in the address. */

test("the filter narrows the contents as one types, and a reload keeps it", async ({ page, request }) => {
  const seed = await Seeder.admin();
  const groupId = await seed.group(unique("Фото"));
  const names = ["кот-рыжий.jpg", "собака.jpg", "Кот-серый.jpg", "попугай.jpg"];
  await seed.emptyAssets(groupId, names.length, (i) => names[i]!);
  // Its own user: the view and sort settings follow the user (decision 042) and must not touch other tests.
  const user = await createPlainUser(request);
  await seed.call("/api/user/acl", { json: { subj: user.id, obj: groupId, acl: ["read"] } });
  await openSignedIn(page, user, `/mam/${groupId}`);

  const list = page.getByRole("list", { name: "Содержимое группы" });
  const items = list.locator("[data-item]");
  await expect(items).toHaveCount(4);

  const filter = page.getByPlaceholder("Фильтр по имени");
  await filter.fill("кот");
  await expect(items).toHaveCount(2);
  await expect(list.getByText("кот-рыжий.jpg")).toBeVisible();
  await expect(list.getByText("Кот-серый.jpg")).toBeVisible();
  await expect(list.getByText("собака.jpg")).toHaveCount(0);
  await expect(page).toHaveURL(/[?&]q=%D0%BA%D0%BE%D1%82/);

  await filter.fill("кот-р");
  await expect(items).toHaveCount(1);

  await reloadSignedIn(page);
  await expect(page.getByPlaceholder("Фильтр по имени")).toHaveValue("кот-р");
  await expect(items).toHaveCount(1);
  await expect(list.getByText("кот-рыжий.jpg")).toBeVisible();

  await page.getByPlaceholder("Фильтр по имени").fill("");
  await expect(items).toHaveCount(4);
  await expect(page).not.toHaveURL(/[?&]q=/);
});

test.describe("before the page's script takes over", () => {
  // The service worker would serve the scripts itself, out of page.route's reach.
  test.use({ serviceWorkers: "block" });

  test("text typed into the server's page still filters once the script runs", async ({ page, request }) => {
    const seed = await Seeder.admin();
    const groupId = await seed.group(unique("Фото"));
    const names = ["кот-рыжий.jpg", "собака.jpg", "попугай.jpg"];
    await seed.emptyAssets(groupId, names.length, (i) => names[i]!);
    const user = await createPlainUser(request);
    await seed.call("/api/user/acl", { json: { subj: user.id, obj: groupId, acl: ["read"] } });
    await openSignedIn(page, user, `/mam/${groupId}`);
    const items = page.getByRole("list", { name: "Содержимое группы" }).locator("[data-item]");
    await expect(items).toHaveCount(3);

    // The reload's scripts are held back until the text is in the box; the settings the hydrating page asks for
    // are held until the filter's own load has started, so that load begins while the page still hydrates.
    const scripts = await holdBack(page, /\/assets\/.+\.js$/);
    const settings = await holdBack(page, /\/api\/user\/ui_settings$/);
    await page.reload({ waitUntil: "commit" });
    await page.getByPlaceholder("Фильтр по имени").fill("кот");
    const filtered = page.waitForRequest((r) => r.url().includes("/api/group/members/") && r.url().includes("filters="));
    await scripts.release();
    await filtered;
    await settings.release();

    await expect(page).toHaveURL(/[?&]q=%D0%BA%D0%BE%D1%82/);
    await expect(items).toHaveCount(1);
    await expect(page.getByPlaceholder("Фильтр по имени")).toHaveValue("кот");
  });
});

/** Holds back the page's requests to `url` until `release()`, which lets them through and stops holding. */
async function holdBack(page: Page, url: RegExp) {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  const handler = async (route: Route) => {
    await opened;
    await route.fallback();
  };
  await page.route(url, handler);
  return {
    async release() {
      open();
      await page.unroute(url, handler);
    },
  };
}
