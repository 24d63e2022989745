import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { adminBearer, mkGroup, mkTag, tagsOf, uploadInto } from "./automations-seed";
import { ADMIN, createPlainUser, expect, gotoSignedIn, test } from "./fixtures";

/**
 * Automations in Chromium: an admin builds "on upload into a group: tag it, make a share link, call a webhook"
 * in the editor, enables it, a file is uploaded there, and the run shows in the history with its step logs; the
 * tag is on the file and the webhook reached a local server (`npm start` allows private webhook addresses).
 */

test.use({ signedInAs: ADMIN });

test("build the upload workflow in the editor, upload a file, see the tag and the run", async ({ page }) => {
  const hits: { headers: IncomingHttpHeaders; body: string }[] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", () => {
      hits.push({ headers: req.headers, body });
      res.end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const hookUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  try {
    const bearer = await adminBearer();
    const suffix = Date.now().toString(36);
    const group = await mkGroup(bearer, `Входящие ${suffix}`);
    const tagName = `Новое ${suffix}`;
    await mkTag(bearer, tagName);

    await gotoSignedIn(page, "/automations");
    await page.getByRole("button", { name: "Создать" }).click();
    await expect(page).toHaveURL(/\/automations\/[0-9a-f-]{36}$/);
    await page.getByLabel("Название").fill(`Разметка входящих ${suffix}`);
    await page.getByLabel("Группа (id)").fill(group);

    const addStep = async (name: string) => {
      await page.getByRole("textbox", { name: "Добавить шаг" }).click();
      await page.getByRole("option", { name, exact: true }).click();
    };
    await addStep("Поставить тег");
    await page.getByRole("textbox", { name: "Шаг 1: Тег" }).click();
    await page.getByRole("option", { name: tagName }).click();
    await addStep("Создать ссылку");
    // The MultiSelect's pills box lies over its input.
    await page.getByRole("textbox", { name: "Шаг 2: Права получателя" }).click({ force: true });
    await page.getByRole("option", { name: "Просмотр" }).click();
    await page.keyboard.press("Escape");
    await page.getByRole("textbox", { name: "Шаг 2: Срок, дней" }).fill("7");
    await addStep("Вызвать вебхук");
    await page.getByRole("textbox", { name: "Шаг 3: Адрес (URL)" }).fill(hookUrl);
    await page.getByRole("button", { name: "Сохранить", exact: true }).click();
    await expect(page.getByText("Сохранено")).toBeVisible();
    // A Mantine switch hides its input under the track: the label is what a user clicks.
    await page.getByText("Включена", { exact: true }).click();
    await expect(page.getByRole("switch", { name: "Включена" })).toBeChecked();

    const asset = await uploadInto(bearer, group, `Кадр ${suffix}.png`);
    // The run's own status is on its header; its steps' statuses may already be in the (closed) panel.
    const runHeader = page.getByTestId("run").first().getByRole("button").first();
    await expect(runHeader).toContainText("готово", { timeout: 20_000 });
    await runHeader.click();
    await expect(page.getByTestId("run-step")).toHaveCount(3);
    await expect(page.getByTestId("run-step").nth(2)).toContainText("ответ 200");

    expect(await tagsOf(bearer, asset)).toContain(tagName);
    await gotoSignedIn(page, `/asset/${asset}`);
    await expect(page.getByText(tagName).first()).toBeVisible();
    expect(hits).toHaveLength(1);
    expect(hits[0].headers["webhook-signature"]).toMatch(/^v1,/);

    await gotoSignedIn(page, "/automations");
    const row = page.getByTestId("workflow-row").filter({ hasText: `Разметка входящих ${suffix}` });
    await expect(row).toContainText("Файл загружен");
    await expect(row).toContainText("1 запуск");
  } finally {
    server.close();
  }
});

test("share a workflow: an unknown login is named under its field, a user's saves with its role", async ({ page, request }) => {
  const bearer = await adminBearer();
  const user = await createPlainUser(request);
  const made = await request.post("/api/udwf/workflow", {
    headers: { Authorization: `Bearer ${bearer}` },
    data: { name: `Общая ${Date.now().toString(36)}` },
  });
  const id = (await made.json()).workflow_id as string;
  await gotoSignedIn(page, `/automations/${id}`);
  const card = page.getByTestId("sharing");
  await expect(card).toContainText("Ни с кем не поделена");
  await card.getByRole("button", { name: "Добавить" }).click();
  const subject = card.getByRole("textbox", { name: "Логин или id пользователя, id команды" });
  await subject.fill("nobody-such-login");
  await card.getByRole("button", { name: "Сохранить доступ" }).click();
  await expect(card.getByText("нет такого пользователя")).toBeVisible();
  await subject.fill(user.login);
  await card.getByRole("textbox", { name: "Права" }).click();
  await page.getByRole("option", { name: "Изменение и запуск" }).click();
  await card.getByRole("button", { name: "Сохранить доступ" }).click();
  await expect(page.getByText("Доступ сохранён")).toBeVisible();
  const shares = await request.get(`/api/udwf/workflow-shares/${id}`, { headers: { Authorization: `Bearer ${bearer}` } });
  expect((await shares.json()).items).toEqual([expect.objectContaining({ subject_id: user.id, login: user.login, role: "edit" })]);
});

test("a failed run shows its error and «Повторить» runs it again", async ({ page, request }) => {
  // The receiver first answers a redirect (a delivery that fails for good, 053), then 200.
  let status = 302;
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      res.statusCode = status;
      if (status === 302) res.setHeader("Location", "http://127.0.0.1:1/elsewhere");
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    const headers = { Authorization: `Bearer ${await adminBearer()}` };
    const made = await request.post("/api/udwf/workflow", { headers, data: { name: `Повтор ${Date.now().toString(36)}` } });
    const id = ((await made.json()) as { workflow_id: string }).workflow_id;
    const hook = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
    const steps = [{ action: "webhook.call", params: { url: hook } }];
    expect(
      (await request.patch(`/api/udwf/workflow-setup/${id}`, { headers, data: { trigger: { type: "manual" }, steps } })).status(),
    ).toBe(200);

    // Started from the page: «Запустить» loads the trigger form, then opens the dialog with it.
    await gotoSignedIn(page, `/automations/${id}`);
    await expect(page.getByTestId("run")).toHaveCount(0);
    await page.getByRole("button", { name: "Запустить", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Запуск автоматизации" });
    await dialog.getByRole("button", { name: "Запустить", exact: true }).click();
    await expect(dialog).toBeHidden();
    const runHeader = page.getByTestId("run").first().getByRole("button").first();
    await expect(runHeader).toContainText("ошибка", { timeout: 20_000 });
    await runHeader.click();
    await expect(page.getByText(/Шаг 1: .*302/).first()).toBeVisible();
    // The open run is in the address: a reload (or the link) shows it open with its steps.
    await expect(page).toHaveURL(/\?run=[0-9a-f-]{36}$/);
    await page.reload();
    await expect(page.getByText(/Шаг 1: .*302/).first()).toBeVisible();
    status = 200;
    await page.getByRole("button", { name: "Повторить" }).click();
    await expect(page.getByText("Запуск начат снова")).toBeVisible();
    await expect(runHeader).toContainText("готово", { timeout: 20_000 });
    await expect(page.getByRole("button", { name: "Повторить" })).toHaveCount(0);
  } finally {
    server.close();
  }
});
