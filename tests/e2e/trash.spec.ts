import type { APIRequestContext, Page } from "@playwright/test";
import { base, Seeder, unique } from "./browse-seed";
import { createPlainUser, expect, openSignedIn, test } from "./fixtures";

/**
 * «Удалённые» (/trash) in Chromium against the real server: a user's deleted groups come back with their
 * contents, a restore under a taken name is renamed «… (восстановлено)», and «Удалить навсегда» says what goes
 * before it goes. Each test has a user of its own (the list shows the caller's deletes), seeded through the API.
 */

async function ownUser(request: APIRequestContext, admin: Seeder, parentId: string) {
  const user = await createPlainUser(request);
  await admin.call("/api/user/acl", { json: { subj: user.id, obj: parentId, acl: ["read", "create", "update", "delete"] } });
  const client = new Seeder(base);
  await client.login(user.login, user.password);
  return { user, client };
}

const row = (page: Page, name: string) => page.getByTestId("trash-row").filter({ hasText: name });

test("a deleted group is restored from «Удалённые» with its contents", async ({ page, request }) => {
  const admin = await Seeder.admin();
  const parentId = await admin.group(unique("Проекты"));
  const { user, client } = await ownUser(request, admin, parentId);
  const name = unique("Съёмка");
  const groupId = await client.group(name, parentId);
  await client.group("Исходники", groupId);
  await client.emptyAssets(groupId, 2, (i) => `кадр-${i}.txt`);
  await client.call(`/api/group/delete/${groupId}`, { method: "DELETE" });

  await openSignedIn(page, user, "/mam");
  await page.getByRole("link", { name: "Удалённые" }).click();
  await expect(page).toHaveURL(/\/trash$/);
  await expect(row(page, name)).toBeVisible();
  await expect(row(page, name)).toContainText(user.name);
  await expect(row(page, name)).toContainText("2 группы · 2 файла");

  await row(page, name).getByRole("button", { name: "Восстановить" }).click();
  await expect(page.getByText(`Группа «${name}» восстановлена`)).toBeVisible();
  await expect(row(page, name)).toHaveCount(0);

  await page.goto(`/mam/${groupId}`);
  const list = page.getByRole("list", { name: "Содержимое группы" });
  await expect(list.getByText("Исходники")).toBeVisible();
  await expect(list.getByText("кадр-0.txt")).toBeVisible();
  await expect(list.getByText("кадр-1.txt")).toBeVisible();
});

test("restoring next to a group of the same name adds « (восстановлено)»", async ({ page, request }) => {
  const admin = await Seeder.admin();
  const parentId = await admin.group(unique("Архив"));
  const { user, client } = await ownUser(request, admin, parentId);
  const name = unique("Интервью");
  const groupId = await client.group(name, parentId);
  await client.call(`/api/group/delete/${groupId}`, { method: "DELETE" });
  await client.group(name, parentId);

  await openSignedIn(page, user, "/trash");
  await row(page, name).getByRole("button", { name: "Восстановить" }).click();
  await expect(row(page, name)).toHaveCount(0);
  await expect.poll(async () => (await client.call(`/api/group/get/${groupId}`)).group_name).toBe(`${name} (восстановлено)`);
});

test("«Удалить навсегда» says how many files go, then removes the group and them", async ({ page, request }) => {
  const admin = await Seeder.admin();
  const parentId = await admin.group(unique("Старое"));
  const { user, client } = await ownUser(request, admin, parentId);
  const name = unique("Черновики");
  const groupId = await client.group(name, parentId);
  const assets = await client.emptyAssets(groupId, 3);
  await client.call(`/api/group/delete/${groupId}`, { method: "DELETE" });

  await openSignedIn(page, user, "/trash");
  await row(page, name).getByRole("button", { name: "Удалить навсегда" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toContainText(`Группа «${name}» будет удалена без возможности восстановления`);
  await expect(dialog).toContainText("1 группа; 3 файла (0 байт)");
  await dialog.getByRole("button", { name: "Удалить навсегда" }).click();
  await expect(page.getByText(`Группа «${name}» удалена навсегда`)).toBeVisible();
  await expect(row(page, name)).toHaveCount(0);

  // Gone for good: the group and the files that were only there.
  await expect(admin.call(`/api/group/get/${groupId}`)).rejects.toThrow(/404/);
  for (const id of assets) await expect(admin.call(`/api/auth/entity-access/${id}`)).rejects.toThrow(/404/);
});
