import { Seeder, unique } from "./browse-seed";
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

    // The reload's scripts are held back until the text is in the box.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(/\/assets\/.+\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await page.reload({ waitUntil: "commit" });
    await page.getByPlaceholder("Фильтр по имени").fill("кот");
    release();

    await expect(page).toHaveURL(/[?&]q=%D0%BA%D0%BE%D1%82/);
    await expect(items).toHaveCount(1);
    await expect(page.getByPlaceholder("Фильтр по имени")).toHaveValue("кот");
  });
});
