import type { APIRequestContext, Locator, Page } from "@playwright/test";
import { VIRTUAL_ROOT_ID as VIRTUAL_ROOT } from "../../shared/lib/constants";
import { ADMIN, apiBearer, createPlainUser, expect, gotoSignedIn, sessionBearer, signedInPage, test } from "./fixtures";

/**
 * The admin area in Chromium: an admin creates a user and a read rule on a group subtree through the
 * screens; that user then sees exactly the granted subtree under 'Доступные Файлы'. Also the admin
 * addresses that open their first tab, and a robot's token, shown once. Groups and robots are seeded through the API.
 */

const tag = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

async function adminCall(request: APIRequestContext, method: "GET" | "POST", path: string, data?: unknown) {
  const bearer = await apiBearer(request, ADMIN.login, ADMIN.password);
  const response = await request.fetch(path, { method, data, headers: { Authorization: `Bearer ${bearer}` } });
  expect(response.ok(), `${method} ${path}: ${response.status()} ${await response.text()}`).toBe(true);
  return response.json();
}

const mkGroup = async (request: APIRequestContext, name: string, parent: string): Promise<string> =>
  (await adminCall(request, "POST", "/api/group/create", { group_name: name, parent })).group_id;

/** A top group with a child, and a separate top group beside it. */
async function seedTree(request: APIRequestContext) {
  const t = tag();
  const names = { top: `Отдел ${t}`, child: `Проекты ${t}`, sibling: `Чужой отдел ${t}` };
  const top = await mkGroup(request, names.top, VIRTUAL_ROOT);
  const child = await mkGroup(request, names.child, top);
  const sibling = await mkGroup(request, names.sibling, VIRTUAL_ROOT);
  return { names, ids: { top, child, sibling } };
}

test.use({ signedInAs: ADMIN });

/** Picks an option of a searching Mantine Select: type, wait for the server's answer, click the exact option. */
async function pick(scope: Locator, page: Page, label: string, text: string, option = text) {
  await scope.getByLabel(label).fill(text);
  await page.getByRole("option", { name: option, exact: true }).click();
}

/** Through the screens: a new user, then a read rule for them on `groupName`; returns their credentials. */
async function createUserWithReadRule(page: Page, groupName: string) {
  const t = tag();
  const user = { name: `Сотрудник ${t}`, login: `staff-${t}`, password: `Pw-${t}-long` };
  await gotoSignedIn(page, "/admin/access");
  await expect(page).toHaveURL(/\/admin\/active-users$/);
  await page.getByRole("button", { name: "Новый пользователь" }).click();
  const form = page.getByRole("dialog", { name: "Новый пользователь" });
  await form.getByRole("textbox", { name: "Имя" }).fill(user.name);
  await form.getByRole("textbox", { name: "Логин" }).fill(user.login);
  // The form checks with the API's own rules and says what a 400 would say.
  await form.getByLabel("Пароль").fill("short");
  await form.getByRole("button", { name: "Сохранить" }).click();
  await expect(form.getByText("не короче 8 символов", { exact: true })).toBeVisible();
  await form.getByLabel("Пароль").fill(user.password);
  await form.getByRole("button", { name: "Сохранить" }).click();
  // Saving opens the new user's screen, whose address lands on its /actives tab.
  await expect(page).toHaveURL(/\/admin\/user\/[0-9a-f-]{36}\/actives$/);
  await expect(page.getByRole("heading", { name: user.name })).toBeVisible();

  await page.getByRole("button", { name: "Новое правило" }).click();
  const ruleForm = page.getByRole("dialog", { name: "Новое правило доступа" });
  await ruleForm.getByRole("button", { name: "Новое правило" }).click();
  await expect(ruleForm.getByText("обязательное поле", { exact: true })).toBeVisible();
  await pick(ruleForm, page, "На что", groupName);
  await expect(ruleForm.getByRole("checkbox", { name: "Чтение" })).toBeChecked();
  await ruleForm.getByRole("button", { name: "Новое правило" }).click();
  await expect(ruleForm).toBeHidden();
  const row = page.getByTestId("rule-row");
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(groupName);
  await expect(row).toContainText("Чтение");
  return user;
}

/** GET through the API from inside the page, as whoever is signed in there (the bearer of the browser's session). */
async function browserGet(page: Page, path: string): Promise<{ status: number; body: unknown }> {
  const bearer = await sessionBearer(page);
  return page.evaluate(
    async ({ url, b }) => {
      const response = await fetch(url, { headers: { Authorization: `Bearer ${b}` } });
      return { status: response.status, body: await response.json() };
    },
    { url: path, b: bearer },
  );
}

const memberNames = async (page: Page, groupId: string) => {
  const { status, body } = await browserGet(page, `/api/group/members/${groupId}?type=group`);
  expect(status).toBe(200);
  return (body as { el_info: { name: string } }[]).map((m) => m.el_info.name);
};

/**
 * The group names a user sees as text on the browse screen (default /mam: the tree under 'Доступные
 * Файлы'), and those they must not see. Depends on the /mam group tree built in app/routes/_app.mam*.tsx.
 */
async function expectTreeShows(page: Page, names: string[], hidden: string[], path = "/mam") {
  await gotoSignedIn(page, path);
  await expect(page.getByText("Доступные Файлы").first()).toBeVisible();
  for (const name of names) await expect(page.getByText(name, { exact: true }).first()).toBeVisible();
  for (const name of hidden) await expect(page.getByText(name, { exact: true })).toHaveCount(0);
}

test("an admin creates a user and a read rule on a subtree; that user's API view is exactly that subtree", async ({
  page,
  browser,
  request,
}) => {
  test.slow(); // a dozen screens on a shared machine
  const { names, ids } = await seedTree(request);
  const user = await createUserWithReadRule(page, names.top);

  const { context, page: userPage } = await signedInPage(browser, user);
  const visibleRoots = await memberNames(userPage, VIRTUAL_ROOT);
  expect(visibleRoots).toContain(names.top);
  expect(visibleRoots).not.toContain(names.sibling);
  expect(await memberNames(userPage, ids.top)).toEqual([names.child]);
  // The sibling is not there for this user at all: the same 404 as a group that does not exist.
  expect((await browserGet(userPage, `/api/group/members/${ids.sibling}`)).status).toBe(404);
  await context.close();
});

test("…and on /mam that user sees the granted group and its child under 'Доступные Файлы', not the sibling", async ({
  page,
  browser,
  request,
}) => {
  test.slow(); // as above; this one also needs the /mam group tree (app/routes/_app.mam*.tsx)
  const { names, ids } = await seedTree(request);
  const user = await createUserWithReadRule(page, names.top);

  const { context, page: userPage } = await signedInPage(browser, user);
  await expectTreeShows(userPage, [names.top], [names.sibling]);
  await expectTreeShows(userPage, [names.child], [names.sibling], `/mam/${ids.top}`);
  await context.close();
});

test("the admin addresses open their first tab", async ({ page, request }) => {
  const { ids } = await seedTree(request);
  const robot = await adminCall(request, "POST", "/api/user", {
    user_name: `Робот ${tag()}`,
    user_login: `bot-${tag()}`,
    user_passwd: "robot-password-1",
    enabled: true,
    is_robot: true,
  });

  await gotoSignedIn(page, "/admin/access");
  await expect(page).toHaveURL(/\/admin\/active-users$/);
  await expect(page.getByRole("tab", { name: "Активные пользователи", selected: true })).toBeVisible();

  await gotoSignedIn(page, `/admin/group/${ids.top}`);
  await expect(page).toHaveURL(new RegExp(`/admin/group/${ids.top}/actives$`));
  await expect(page.getByRole("tab", { name: "Права", selected: true })).toBeVisible();
  await expect(page.getByRole("tab", { name: "Пользователи" })).toBeVisible();

  await gotoSignedIn(page, `/admin/user/${robot.user_id}`);
  await expect(page).toHaveURL(new RegExp(`/admin/user/${robot.user_id}/actives$`));
  await expect(page.getByRole("tab", { name: "Права", selected: true })).toBeVisible();
  await expect(page.getByRole("tab", { name: "Группы" })).toBeVisible();
});

test("a robot's token is shown once with a copy button, works, and stops working once revoked", async ({ page, request }) => {
  const t = tag();
  const robot = await adminCall(request, "POST", "/api/user", {
    user_name: `Робот ${t}`,
    user_login: `bot-${t}`,
    user_passwd: "robot-password-1",
    enabled: true,
    is_robot: true,
  });
  await gotoSignedIn(page, `/admin/user/${robot.user_id}`);
  const panel = page.getByRole("region", { name: "API-токены" });
  await panel.getByRole("textbox", { name: "Название токена" }).fill("импорт");
  await panel.getByRole("button", { name: "Выдать токен" }).click();

  const shown = page.getByRole("dialog", { name: "Новый токен" });
  const token = (await shown.getByTestId("issued-token").innerText()).trim();
  expect(token).toMatch(/^mam_\S{20,}$/);
  await expect(shown.getByRole("button", { name: "Копировать токен" })).toBeVisible();
  const whoami = await request.get("/api/auth/whoami", { headers: { Authorization: `Bearer ${token}` } });
  expect(whoami.status()).toBe(200);

  await shown.getByRole("button", { name: "Готово" }).click();
  await expect(shown).toBeHidden();
  // Shown once: neither the screen nor a reload of it has the secret any more.
  await expect(page.getByTestId("token-row")).toContainText("Действует");
  expect(await page.content()).not.toContain(token);
  await page.reload();
  await expect(page.getByTestId("token-row")).toContainText("импорт");
  expect(await page.content()).not.toContain(token);

  await page.getByTestId("token-row").getByRole("button", { name: "Отозвать" }).click();
  await expect(page.getByTestId("token-row")).toContainText("Отозван");
  expect((await request.get("/api/auth/whoami", { headers: { Authorization: `Bearer ${token}` } })).status()).toBe(401);
});

test("an admin adds a user to a group's team on the group screen and sees it on the user's groups tab", async ({ page, request }) => {
  const { names, ids } = await seedTree(request);
  const t = tag();
  const person = await adminCall(request, "POST", "/api/user", {
    user_name: `Участник ${t}`,
    user_login: `member-${t}`,
    user_passwd: "member-password-1",
    enabled: true,
  });
  await gotoSignedIn(page, `/admin/group/${ids.sibling}/users`);
  await pick(page.getByRole("main"), page, "Добавить пользователя", `участник ${t}`, `Участник ${t} (member-${t})`);
  await page.getByRole("button", { name: "Добавить" }).click();
  await expect(page.getByTestId("member-row")).toContainText(`member-${t}`);

  await page
    .getByTestId("member-row")
    .getByRole("link", { name: `Участник ${t}` })
    .click();
  await expect(page).toHaveURL(new RegExp(`/admin/user/${person.user_id}/actives$`));
  await page.getByRole("tab", { name: "Группы" }).click();
  await expect(page.getByTestId("team-row")).toContainText(names.sibling);
  await page.getByTestId("team-row").getByRole("button", { name: "Убрать" }).click();
  await expect(page.getByText("Пользователь не состоит ни в одной группе")).toBeVisible();
});

test("an admin renames and disables a user from the list; the user moves to the inactive tab and their session ends", async ({
  page,
  request,
}) => {
  test.slow(); // three sign-ins (password hashing), a reload and two tabs on a shared machine
  const user = await createPlainUser(request);
  const userBearer = await apiBearer(request, user.login, user.password);
  await gotoSignedIn(page, "/admin/active-users");
  await page.getByRole("textbox", { name: "Поиск" }).fill(user.login);
  const row = page.getByTestId("user-row");
  await expect(row).toHaveCount(1);
  // The search is in the address: a reload shows the same list with the same text in the box.
  await expect(page).toHaveURL(new RegExp(`/admin/active-users\\?q=${user.login}$`));
  await page.reload();
  await expect(page.getByRole("textbox", { name: "Поиск" })).toHaveValue(user.login);
  await expect(row).toHaveCount(1);
  await row.getByRole("button", { name: "Изменить" }).click();
  const form = page.getByRole("dialog", { name: "Изменить пользователя" });
  await form.getByRole("textbox", { name: "Имя" }).fill(`${user.name} (переименован)`);
  await form.getByRole("textbox", { name: "Квота, ГБ" }).fill("2,5");
  await form.getByRole("button", { name: "Сохранить" }).click();
  await expect(row).toContainText(`${user.name} (переименован)`);
  const adminHeaders = { Authorization: `Bearer ${await apiBearer(request, ADMIN.login, ADMIN.password)}` };
  const [saved] = await (await request.get(`/api/user?q=${user.login}`, { headers: adminHeaders })).json();
  expect(saved.quota).toBe(2.5 * 1024 ** 3);

  await row.getByRole("button", { name: "Отключить" }).click();
  await expect(page.getByTestId("user-row")).toHaveCount(0);
  await page.getByRole("tab", { name: "Неактивные пользователи" }).click();
  await expect(page).toHaveURL(/\/admin\/inactive-users$/);
  await page.getByRole("textbox", { name: "Поиск" }).fill(user.login);
  await expect(page.getByTestId("user-row")).toContainText("Отключён");
  expect((await request.get("/api/auth/whoami", { headers: { Authorization: `Bearer ${userBearer}` } })).status()).toBe(401);
});

test("a user that cannot be loaded shows the Russian error block in place of the screen, and 'Повторить' loads again", async ({ page }) => {
  await gotoSignedIn(page, "/admin/user/00000000-0000-4000-8000-00000000dead");
  const block = page.getByRole("alert").filter({ hasText: "Не найдено" });
  await expect(block).toBeVisible();
  await expect(block).toContainText("Код запроса:");
  // The header stays: the rest of the app is one click away.
  await expect(page.getByRole("link", { name: "Администрирование" })).toBeVisible();
  const retried = page.waitForRequest((r) => r.url().includes("/api/user/00000000-0000-4000-8000-00000000dead"));
  await block.getByRole("button", { name: "Повторить" }).click();
  await retried;
  await expect(block).toBeVisible();
});
