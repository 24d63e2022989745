import type { APIRequestContext } from "@playwright/test";
import { Seeder, unique } from "./browse-seed";
import { ADMIN, apiBearer, createPlainUser, expect, gotoSignedIn, test } from "./fixtures";

/**
 * Admin actions of the user screen in Chromium against the real server: deleting a user with an heir for what
 * they own (their session ends), and a rule's permissions changed in place. Data is seeded through the API.
 */

test.use({ signedInAs: ADMIN });

async function userWithAsset(request: APIRequestContext) {
  const user = await createPlainUser(request);
  const bearer = await apiBearer(request, user.login, user.password);
  const made = await request.post("/api/asset/create", {
    headers: { Authorization: `Bearer ${bearer}` },
    data: { asset_name: "заметки.txt", asset_mime: "text/plain" },
  });
  expect(made.ok(), await made.text()).toBe(true);
  return { user, bearer, assetId: (await made.json()).asset_id as string };
}

test("«Удалить пользователя» passes their files to the chosen heir and ends their session", async ({ page, request }) => {
  const { user, bearer, assetId } = await userWithAsset(request);
  const heir = await createPlainUser(request);

  await gotoSignedIn(page, `/admin/user/${user.id}`);
  await expect(page.getByRole("heading", { name: user.name })).toBeVisible();
  await page.getByRole("button", { name: "Удалить пользователя" }).click();
  const dialog = page.getByRole("dialog", { name: "Удалить пользователя?" });
  await expect(dialog).toContainText("сеансы, API-токены и пароли приложений перестанут действовать");
  await dialog.getByLabel("Кому передать его файлы, группы и автоматизации").fill(heir.login);
  await page.getByRole("option", { name: `${heir.name} (${heir.login})`, exact: true }).click();
  await dialog.getByRole("button", { name: "Удалить", exact: true }).click();

  await expect(page.getByText(`Пользователь «${user.name}» удалён`)).toBeVisible();
  await expect(page).toHaveURL(/\/admin\/active-users$/);
  // Their session is over; the heir owns the file (an unplaced asset is reachable through its owner alone).
  expect((await request.get("/api/auth/whoami", { headers: { Authorization: `Bearer ${bearer}` } })).status()).toBe(401);
  const heirBearer = await apiBearer(request, heir.login, heir.password);
  const seen = await request.get(`/api/auth/entity-access/${assetId}`, { headers: { Authorization: `Bearer ${heirBearer}` } });
  expect(seen.status(), await seen.text()).toBe(200);
});

test("without a chosen heir the deleting admin takes over", async ({ page, request }) => {
  const { user, assetId } = await userWithAsset(request);
  await gotoSignedIn(page, `/admin/user/${user.id}`);
  await page.getByRole("button", { name: "Удалить пользователя" }).click();
  await page.getByRole("dialog", { name: "Удалить пользователя?" }).getByRole("button", { name: "Удалить", exact: true }).click();
  await expect(page).toHaveURL(/\/admin\/active-users$/);
  const seed = await Seeder.admin();
  await expect.poll(async () => (await seed.call(`/api/asset/${assetId}`)).owner).toBe((await seed.call("/api/auth/whoami")).id);
});

test("«Изменить» on a rule row changes its permissions in place", async ({ page, request }) => {
  const seed = await Seeder.admin();
  const groupName = unique("Отдел");
  const groupId = await seed.group(groupName);
  const user = await createPlainUser(request);
  const rule = await seed.call("/api/user/acl", { json: { subj: user.id, obj: groupId, acl: ["read"] } });

  await gotoSignedIn(page, `/admin/user/${user.id}/actives`);
  const row = page.getByTestId("rule-row").filter({ hasText: groupName });
  await expect(row).toContainText("Чтение");
  await row.getByRole("button", { name: "Изменить" }).click();
  // A chip's checkbox is visually hidden: its label is what a person clicks.
  await row.getByText("Изменение", { exact: true }).click();
  await expect(row.getByRole("checkbox", { name: "Изменение" })).toBeChecked();
  await row.getByRole("button", { name: "Сохранить" }).click();
  await expect(page.getByText("Права изменены")).toBeVisible();
  await expect(row.getByRole("button", { name: "Сохранить" })).toHaveCount(0);
  await expect(row).toContainText("Изменение");
  await expect.poll(async () => (await seed.call(`/api/user/acl/${rule.rule_id}`)).acl.sort()).toEqual(["read", "update"]);
});
