import type { APIRequestContext, Browser, Page } from "@playwright/test";
import { VIRTUAL_ROOT_ID as ROOT } from "../../shared/lib/constants";
import { ADMIN, apiBearer, createPlainUser, expect, signedInPage, test } from "./fixtures";

/**
 * What follows a user across devices (docs/decisions/042): bookmarked groups at the top of the tree, the contents'
 * view and sort, and the tree's open groups, each checked in a second browser context signed in as the same user.
 * Also the tree menu's actions. Each test has a user of its own, so its settings touch no other test.
 */

const tag = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

async function adminCall(request: APIRequestContext, path: string, data: unknown) {
  const bearer = await apiBearer(request, ADMIN.login, ADMIN.password);
  const res = await request.post(path, { data, headers: { Authorization: `Bearer ${bearer}` } });
  expect(res.ok(), `POST ${path}: ${res.status()} ${await res.text()}`).toBe(true);
  return res.json();
}

/** A user with full rights on a new top group holding two subgroups and a file. */
async function seed(request: APIRequestContext) {
  const user = await createPlainUser(request);
  const t = tag();
  const names = { top: `Проект ${t}`, a: `Афиши ${t}`, b: `Видео ${t}` };
  const top = (await adminCall(request, "/api/group/create", { group_name: names.top, parent: ROOT })).group_id as string;
  const a = (await adminCall(request, "/api/group/create", { group_name: names.a, parent: top })).group_id as string;
  const b = (await adminCall(request, "/api/group/create", { group_name: names.b, parent: top })).group_id as string;
  await adminCall(request, "/api/user/acl", { subj: user.id, obj: top, acl: ["read", "create", "update", "delete", "group"] });
  return { user, names, ids: { top, a, b } };
}

const menuOf = async (page: Page, group: string) => {
  await page.getByRole("treeitem", { name: group }).hover();
  await page.getByRole("button", { name: `Действия с группой ${group}` }).click();
};

async function secondDevice(browser: Browser, user: { login: string; password: string }, to: string) {
  return signedInPage(browser, { login: user.login, password: user.password }, to);
}

test("a bookmarked group is at the top of the tree, on this device and the next", async ({ browser, request }) => {
  const { user, names, ids } = await seed(request);
  const { context, page } = await secondDevice(browser, user, `/mam/${ids.a}`);
  await menuOf(page, names.a);
  await page.getByRole("menuitem", { name: "Добавить в закладки" }).click();
  await expect(page.getByText("Группа добавлена в закладки")).toBeVisible();
  const bookmarks = page.getByRole("navigation", { name: "Закладки" });
  await expect(bookmarks.getByRole("link", { name: names.a })).toBeVisible();

  const other = await secondDevice(browser, user, "/mam");
  const there = other.page.getByRole("navigation", { name: "Закладки" });
  await there.getByRole("link", { name: names.a }).click();
  await expect(other.page).toHaveURL(new RegExp(`/mam/${ids.a}$`));
  await menuOf(other.page, names.a);
  await other.page.getByRole("menuitem", { name: "Убрать из закладок" }).click();
  await expect(there).toHaveCount(0);
  await other.context.close();
  await context.close();
});

test("the view, the sort and the open groups follow the user to another device", async ({ browser, request }) => {
  const { user, names, ids } = await seed(request);
  const { context, page } = await secondDevice(browser, user, `/mam/${ids.top}`);
  await page.getByRole("textbox", { name: "Сортировка" }).click();
  await page.getByRole("option", { name: "По имени" }).click();
  await expect(page).toHaveURL(/sort=name/);
  await page.getByRole("button", { name: "По возрастанию" }).click();
  await expect(page).toHaveURL(/sort=name&order=desc/);
  // The sort above needs the page's script, so the view's switch is live by now.
  await page.getByText("Плитка", { exact: true }).click();
  await expect(page.getByRole("radio", { name: "Плитка" })).toBeChecked();
  // Open the top group's branch in the tree (its subgroups show).
  await page.getByRole("treeitem", { name: names.top }).getByRole("button", { name: "Развернуть" }).click();
  await expect(page.getByRole("treeitem", { name: names.a })).toBeVisible();
  // The settings are written a moment after the last change.
  const bearer = await apiBearer(request, user.login, user.password);
  await expect
    .poll(async () => {
      const res = await request.get("/api/user/ui_settings", { headers: { Authorization: `Bearer ${bearer}` } });
      return res.json();
    })
    .toMatchObject({ mam_view: "grid", mam_sort: { key: "name", dir: "desc" }, tree_open: expect.arrayContaining([ids.top]) });

  const other = await secondDevice(browser, user, "/mam");
  // The tree reopens the top group; its contents open with the saved sort and as tiles.
  await other.page.getByRole("treeitem", { name: names.b }).getByRole("link").click();
  await expect(other.page).toHaveURL(/sort=name&order=desc/);
  await expect(other.page.getByRole("radio", { name: "Плитка" })).toBeChecked();
  await other.context.close();
  await context.close();
});

test("the tree menu moves a group into another", async ({ browser, request }) => {
  const { user, names, ids } = await seed(request);
  const { context, page } = await secondDevice(browser, user, `/mam/${ids.a}`);
  await expect(page.getByRole("treeitem", { name: names.b })).toBeVisible();
  await menuOf(page, names.b);
  await page.getByRole("menuitem", { name: "Переместить в…" }).click();
  const dialog = page.getByRole("dialog", { name: "Переместить в…" });
  await dialog.getByRole("textbox", { name: "Группа назначения" }).click();
  await page.getByRole("option", { name: names.a }).click();
  await dialog.getByRole("button", { name: "Переместить" }).click();
  await expect(page.getByText("Перемещено").first()).toBeVisible();
  const bearer = await apiBearer(request, user.login, user.password);
  const group = await (await request.get(`/api/group/get/${ids.b}`, { headers: { Authorization: `Bearer ${bearer}` } })).json();
  expect(group.parent_id).toBe(ids.a);
  await context.close();
});
