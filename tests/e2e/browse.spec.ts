import type { APIRequestContext, Page } from "@playwright/test";
import { Seeder, unique } from "./browse-seed";
import { ADMIN, createPlainUser, expect, gotoSignedIn, openSignedIn, reloadSignedIn, test } from "./fixtures";

/**
 * The asset browser in Chromium: the group tree under 'Доступные Файлы', the open group kept in the URL,
 * group actions from the tree. Data is seeded through the API from Node.
 */

test.use({ signedInAs: ADMIN });

/**
 * Opens a group as a user of its own who may read it: a test that changes the view or the sort changes its user's
 * settings (they follow the user, docs/decisions/042), which must not reach the admin's other tests.
 */
async function openAsOwnUser(page: Page, request: APIRequestContext, seed: Seeder, groupId: string) {
  const user = await createPlainUser(request);
  await seed.call("/api/user/acl", { json: { subj: user.id, obj: groupId, acl: ["read"] } });
  await openSignedIn(page, { login: user.login, password: user.password }, `/mam/${groupId}`);
}

const tree = (page: Page) => page.getByRole("tree", { name: "Дерево групп" });
const treeItem = (page: Page, name: string) => tree(page).getByRole("treeitem").filter({ hasText: name });

test("the tree shows 'Доступные Файлы', expands lazily, and the open group survives back, forward and reload", async ({ page }) => {
  const seed = await Seeder.admin();
  const top = unique("Верхняя");
  const topId = await seed.group(top);
  const child = unique("Вложенная");
  const childId = await seed.group(child, topId);
  const grandchild = unique("Глубокая");
  await seed.group(grandchild, childId);

  await gotoSignedIn(page, "/mam");
  await expect(treeItem(page, "Доступные Файлы")).toBeVisible();
  await expect(treeItem(page, top)).toBeVisible();
  // Children are not there until their parent is expanded.
  await expect(treeItem(page, child)).toHaveCount(0);
  await treeItem(page, top).getByRole("button", { name: "Развернуть" }).click();
  await expect(treeItem(page, child)).toBeVisible();
  await expect(treeItem(page, grandchild)).toHaveCount(0);

  await treeItem(page, child).getByRole("link", { name: child }).click();
  await expect(page).toHaveURL(new RegExp(`/mam/${childId}$`));
  await expect(page.getByRole("heading", { name: child })).toBeVisible();

  await treeItem(page, top).getByRole("link", { name: top }).click();
  await expect(page).toHaveURL(new RegExp(`/mam/${topId}$`));
  await page.goBack();
  await expect(page).toHaveURL(new RegExp(`/mam/${childId}$`));
  await expect(page.getByRole("heading", { name: child })).toBeVisible();
  await page.goForward();
  await expect(page.getByRole("heading", { name: top })).toBeVisible();
  await page.goBack();

  // A reload lands on the same group, with the tree opened down to it.
  await page.reload();
  await expect(page).toHaveURL(new RegExp(`/mam/${childId}$`));
  await expect(page.getByRole("heading", { name: child })).toBeVisible();
  await expect(treeItem(page, child)).toHaveAttribute("aria-selected", "true");
});

test("a group is created, renamed and deleted from the tree", async ({ page }) => {
  const seed = await Seeder.admin();
  const parent = unique("Родитель");
  const parentId = await seed.group(parent);
  await gotoSignedIn(page, `/mam/${parentId}`);

  await treeItem(page, parent)
    .getByRole("button", { name: `Действия с группой ${parent}` })
    .click();
  await page.getByRole("menuitem", { name: "Создать группу" }).click();
  const made = unique("Новая");
  await page.getByLabel("Название группы").fill(made);
  await page.getByRole("button", { name: "Сохранить" }).click();
  await expect(treeItem(page, made)).toBeVisible();
  await expect(page.getByRole("heading", { name: made })).toBeVisible();

  await treeItem(page, made)
    .getByRole("button", { name: `Действия с группой ${made}` })
    .click();
  await page.getByRole("menuitem", { name: "Переименовать" }).click();
  const renamed = unique("Переименованная");
  await page.getByLabel("Название группы").fill(renamed);
  await page.getByRole("button", { name: "Сохранить" }).click();
  await expect(treeItem(page, renamed)).toBeVisible();
  await expect(treeItem(page, made)).toHaveCount(0);

  await treeItem(page, renamed)
    .getByRole("button", { name: `Действия с группой ${renamed}` })
    .click();
  await page.getByRole("menuitem", { name: "Удалить" }).click();
  await expect(page.getByText(`Удалить группу «${renamed}» со всем содержимым?`)).toBeVisible();
  await page.getByRole("dialog").getByRole("button", { name: "Удалить" }).click();
  await expect(treeItem(page, renamed)).toHaveCount(0);
  await expect(page).toHaveURL(new RegExp(`/mam/${parentId}$`));
  // The server agrees: the parent has no subgroups left.
  expect(await seed.call(`/api/group/members/${parentId}?type=group`)).toEqual([]);
});

test("a group's contents load 50 at a time while scrolling, with a bounded number of rows in the DOM", async ({ page, request }) => {
  const seed = await Seeder.admin();
  const name = unique("Большая");
  const groupId = await seed.group(name);
  await seed.emptyAssets(groupId, 120);
  await openAsOwnUser(page, request, seed, groupId);

  const list = page.getByRole("list", { name: "Содержимое группы" });
  await expect(list.locator("[data-item]").first()).toBeVisible();
  await expect(page.getByText("Загружено: 50")).toBeVisible();
  const scrollToEnd = () => list.evaluate((el) => el.scrollTo(0, el.scrollHeight));
  await scrollToEnd();
  await expect(page.getByText("Загружено: 100")).toBeVisible();
  await scrollToEnd();
  await expect(page.getByText("Загружено: 120")).toBeVisible();

  // Sorted by name on the server: the list starts again from the first page of that order.
  await page.getByRole("textbox", { name: "Сортировка" }).click();
  await page.getByRole("option", { name: "По имени" }).click();
  await expect(list.locator("[data-item]").first()).toContainText("файл-0000.txt");
  await expect(page.getByText("Загружено: 50")).toBeVisible();
  for (const loaded of [100, 120]) {
    await scrollToEnd();
    await expect(page.getByText(`Загружено: ${loaded}`)).toBeVisible();
  }
  await scrollToEnd();
  await expect(list.getByText("файл-0119.txt")).toBeVisible();
  // 120 items loaded, but only the rows in view (and a few around them) exist.
  const rows = await list.locator("[data-row]").count();
  expect(rows).toBeGreaterThan(5);
  expect(rows).toBeLessThan(45);
  await expect(list.getByText("файл-0000.txt")).toHaveCount(0);

  // The grid shows the same items as tiles; descending order brings the last one first.
  await page.getByText("Плитка").click();
  await page.getByRole("button", { name: "По возрастанию" }).click();
  await list.evaluate((el) => el.scrollTo(0, 0));
  await expect(list.locator("[data-item]").first()).toContainText("файл-0119.txt");
});

test("the first page comes with the HTML; a new sort is asked of the server, from the first page", async ({ page, request }) => {
  const seed = await Seeder.admin();
  const groupId = await seed.group(unique("Сортируемая"));
  await seed.emptyAssets(groupId, 120, (i) => `кадр-${String(i).padStart(4, "0")}.txt`);
  await openAsOwnUser(page, request, seed, groupId);

  // A document request carries the group's first page (as the API orders it) in its HTML: the bearer cookie.
  const [firstPage, nextPage] = await Promise.all(
    [0, 50].map((skip) => seed.call<{ el_info: { name: string } }[]>(`/api/group/members/${groupId}?skip=${skip}`)),
  );
  const html = await (await page.context().request.get(`/mam/${groupId}`)).text();
  for (const m of firstPage) expect(html).toContain(m.el_info.name);
  for (const m of nextPage) expect(html).not.toContain(m.el_info.name);
  await reloadSignedIn(page);
  const list = page.getByRole("list", { name: "Содержимое группы" });
  await expect(list.locator("[data-item]").first()).toContainText(firstPage[0].el_info.name);

  // The sort is the server's, from the first page. The new address's loader asks it (the server reads the first page
  // itself, contents.server.ts) or, when the page-session cookie does not serve, the browser calls the API with
  // skip=0. Watched on the context: once the service worker controls the page, Chromium may report fetches there.
  const asked = page.context().waitForEvent("request", (r) => {
    const url = new URL(r.url());
    const path = url.pathname;
    return url.searchParams.get("sort") === "size" && (path === `/api/group/members/${groupId}` || path.startsWith(`/mam/${groupId}`));
  });
  await page.getByRole("textbox", { name: "Сортировка" }).click();
  await page.getByRole("option", { name: "По размеру" }).click();
  const url = new URL((await asked).url());
  expect(url.searchParams.get("order") ?? "asc").toBe("asc");
  if (url.pathname.startsWith("/api/")) expect(url.searchParams.get("skip")).toBe("0");
  const bySize = await seed.call<{ el_info: { name: string } }[]>(`/api/group/members/${groupId}?sort=size`);
  await expect(list.locator("[data-item]").first()).toContainText(bySize[0].el_info.name);
  await expect(list.locator("[data-item]").nth(1)).toContainText(bySize[1].el_info.name);
  await expect(page.getByText("Загружено: 50")).toBeVisible();

  await page.getByRole("button", { name: "По возрастанию" }).click();
  const bySizeDesc = await seed.call<{ el_info: { name: string } }[]>(`/api/group/members/${groupId}?sort=size&order=desc`);
  await expect(list.locator("[data-item]").first()).toContainText(bySizeDesc[0].el_info.name);
  expect(bySizeDesc[0].el_info.name).not.toBe(bySize[0].el_info.name);
});

test("dragging a group onto another in the tree moves it; selected files are deleted after confirmation", async ({ page }) => {
  const seed = await Seeder.admin();
  const source = unique("Откуда");
  const sourceId = await seed.group(source);
  const target = unique("Куда");
  const targetId = await seed.group(target);
  const moving = unique("Переезжает");
  const movingId = await seed.group(moving, sourceId);
  await seed.emptyAssets(sourceId, 3, (i) => `удалить-${i}.txt`);
  await gotoSignedIn(page, `/mam/${sourceId}`);

  await treeItem(page, source).getByRole("button", { name: "Развернуть" }).click();
  await expect(treeItem(page, moving)).toBeVisible();
  await treeItem(page, moving).dragTo(treeItem(page, target));
  await expect.poll(async () => (await seed.call(`/api/group/get/${movingId}`)).parent_id).toBe(targetId);
  await expect(treeItem(page, moving)).toHaveCount(0);

  const list = page.getByRole("list", { name: "Содержимое группы" });
  await expect(list.locator("[data-item]")).toHaveCount(3);
  await list.getByRole("checkbox", { name: "Выбрать удалить-0.txt" }).check();
  await list.getByRole("checkbox", { name: "Выбрать удалить-2.txt" }).check();
  await expect(page.getByText("Выбрано: 2")).toBeVisible();
  await page.getByRole("button", { name: "Удалить" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Удалить" }).click();
  await expect(list.locator("[data-item]")).toHaveCount(1);
  await expect(list.getByText("удалить-1.txt")).toBeVisible();
  const left = await seed.call<{ el_info: { name: string } }[]>(`/api/group/members/${sourceId}?type=asset`);
  expect(left.map((m) => m.el_info.name)).toEqual(["удалить-1.txt"]);
});

test("the group tree is an ARIA tree driven by the keyboard: arrows, Home/End and Enter", async ({ page }) => {
  const seed = await Seeder.admin();
  const top = unique("Клавиши");
  const topId = await seed.group(top);
  const child = unique("Вглубь");
  const childId = await seed.group(child, topId);
  await seed.group(unique("Лист"), childId);
  await gotoSignedIn(page, `/mam/${topId}`);

  // One row is in the tab order (roving tabindex): the open group's.
  const topItem = treeItem(page, top);
  await expect(topItem).toHaveAttribute("aria-selected", "true");
  await expect(tree(page).locator('[role="treeitem"][tabindex="0"]')).toHaveCount(1);
  await expect(topItem).toHaveAttribute("tabindex", "0");
  await expect(topItem).toHaveAttribute("aria-level", "2");
  await expect(topItem).toHaveAttribute("aria-expanded", "false");
  await topItem.focus();

  // Right opens the group (its children load), then goes to the first child; Left goes back up and closes.
  await page.keyboard.press("ArrowRight");
  await expect(topItem).toHaveAttribute("aria-expanded", "true");
  await expect(treeItem(page, child)).toBeVisible();
  await expect(topItem).toBeFocused();
  await page.keyboard.press("ArrowRight");
  await expect(treeItem(page, child)).toBeFocused();
  await expect(treeItem(page, child)).toHaveAttribute("aria-level", "3");
  await expect(treeItem(page, child)).toHaveAttribute("tabindex", "0");
  await page.keyboard.press("ArrowLeft");
  await expect(topItem).toBeFocused();
  await page.keyboard.press("ArrowLeft");
  await expect(topItem).toHaveAttribute("aria-expanded", "false");
  await expect(treeItem(page, child)).toHaveCount(0);

  // Down and Up move between the rows in view; Home and End go to the first and the last.
  await page.keyboard.press("ArrowRight");
  await expect(treeItem(page, child)).toBeVisible();
  await page.keyboard.press("ArrowDown");
  await expect(treeItem(page, child)).toBeFocused();
  await page.keyboard.press("ArrowUp");
  await expect(topItem).toBeFocused();
  await page.keyboard.press("Home");
  await expect(treeItem(page, "Доступные Файлы")).toBeFocused();
  await page.keyboard.press("End");
  await expect(tree(page).getByRole("treeitem").last()).toBeFocused();

  // Enter opens the focused group in the right pane.
  await treeItem(page, child).focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/mam/${childId}$`));
  await expect(page.getByRole("heading", { name: child })).toBeVisible();
  await expect(treeItem(page, child)).toHaveAttribute("aria-selected", "true");
  await expect(treeItem(page, child)).toBeFocused();
});
