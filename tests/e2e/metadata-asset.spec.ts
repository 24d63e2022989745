import type { APIRequestContext } from "@playwright/test";
import { VIRTUAL_ROOT_ID as ROOT } from "../../shared/lib/constants";
import { ADMIN, apiBearer, createPlainUser, expect, signedInPage, test } from "./fixtures";

/**
 * Metadata on the asset info screen (decisions 031, 032, 038): an admin sets up a template and a class; a user with
 * update fills the class's fields, tags the asset (an existing tag from the suggestions, a new one with Enter,
 * one removed) and files it under a taxon; everything survives a reload; a reader sees the values without editors.
 */

const tag = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

async function adminCall(request: APIRequestContext, method: "POST" | "PATCH", path: string, data: unknown) {
  const bearer = await apiBearer(request, ADMIN.login, ADMIN.password);
  const res = await request.fetch(path, { method, data, headers: { Authorization: `Bearer ${bearer}` } });
  expect(res.ok(), `${method} ${path}: ${res.status()} ${await res.text()}`).toBe(true);
  return res.json();
}

async function seed(request: APIRequestContext) {
  const t = tag();
  const names = {
    title: `Заголовок ${t}`,
    pages: `Страниц ${t}`,
    cls: `Статья ${t}`,
    existing: `архив-${t}`,
    fresh: `новый-${t}`,
    taxon: `Раздел ${t}`,
  };
  const title = (await adminCall(request, "POST", "/api/fields/templates", { field_def_name: names.title, field_type: "text" }))
    .field_def_id;
  const pages = (await adminCall(request, "POST", "/api/fields/templates", { field_def_name: names.pages, field_type: "number" }))
    .field_def_id;
  const cls = (await adminCall(request, "POST", "/api/asset/class", { name: names.cls, def_fields: [title, pages] })).id;
  await adminCall(request, "POST", "/api/tags/create", { tag_name: names.existing });
  await adminCall(request, "POST", "/api/taxonomy/create", { path: `Каталог ${t}/${names.taxon}` });
  const group = (await adminCall(request, "POST", "/api/group/create", { group_name: `Статьи ${t}`, parent: ROOT })).group_id;
  const asset = (
    await adminCall(request, "POST", "/api/asset/create", {
      asset_name: `статья-${t}.txt`,
      asset_mime: "text/plain",
      in_group: group,
      asset_class: cls,
    })
  ).asset_id;
  const editor = await createPlainUser(request);
  const reader = await createPlainUser(request);
  await adminCall(request, "POST", "/api/user/acl", { subj: editor.id, obj: group, acl: ["read", "update"] });
  await adminCall(request, "POST", "/api/user/acl", { subj: reader.id, obj: group, acl: ["read"] });
  return { names, asset, editor, reader };
}

test("a user fills the class's fields, tags and files an asset; a reader sees it all read-only", async ({ browser, request }) => {
  const { names, asset, editor, reader } = await seed(request);
  const { context, page } = await signedInPage(browser, editor, `/asset/${asset}`);
  const panel = page.getByRole("region", { name: "Метаданные" });
  await expect(panel.getByText(`Поля класса «${names.cls}»`)).toBeVisible();

  const title = panel.getByTestId("asset-field").filter({ hasText: names.title });
  await title.getByRole("textbox", { name: names.title }).fill("Весенний номер");
  await title.getByRole("button", { name: "Сохранить" }).click();
  await expect(page.getByText("Значение сохранено").first()).toBeVisible();
  const pages = panel.getByTestId("asset-field").filter({ hasText: names.pages });
  await pages.getByRole("textbox", { name: names.pages }).fill("48");
  await pages.getByRole("button", { name: "Сохранить" }).click();
  await expect(pages.getByRole("button", { name: `Удалить значение: ${names.pages}` })).toBeVisible();

  const tagInput = panel.getByRole("textbox", { name: "Добавить тег" });
  await tagInput.fill(names.existing.slice(0, -2));
  await page.getByRole("option", { name: names.existing }).click();
  await expect(panel.getByText(names.existing, { exact: true })).toBeVisible();
  await tagInput.fill(names.fresh);
  await tagInput.press("Enter");
  await expect(panel.getByText(names.fresh, { exact: true })).toBeVisible();
  await panel.getByRole("button", { name: `Убрать тег «${names.existing}»` }).click();
  await expect(panel.getByText(names.existing, { exact: true })).toHaveCount(0);

  await panel.getByRole("button", { name: "Отнести к разделу" }).click();
  await page.getByRole("navigation", { name: "Выберите раздел" }).getByText(names.taxon, { exact: true }).click();
  await expect(panel.getByText(names.taxon, { exact: true })).toBeVisible();

  await page.reload();
  await expect(panel.getByRole("textbox", { name: names.title })).toHaveValue("Весенний номер");
  await expect(panel.getByRole("textbox", { name: names.pages })).toHaveValue("48");
  await expect(panel.getByText(names.fresh, { exact: true })).toBeVisible();
  await context.close();

  const view = await signedInPage(browser, reader, `/asset/${asset}`);
  const seen = view.page.getByRole("region", { name: "Метаданные" });
  await expect(seen.getByText("Только просмотр: изменять метаданные этого файла нельзя")).toBeVisible();
  await expect(seen.getByRole("textbox", { name: names.title })).toHaveValue("Весенний номер");
  await expect(seen.getByRole("textbox", { name: names.title })).toBeDisabled();
  await expect(seen.getByText(names.fresh, { exact: true })).toBeVisible();
  await expect(seen.getByText(names.taxon, { exact: true })).toBeVisible();
  await expect(seen.getByRole("button", { name: "Сохранить" })).toHaveCount(0);
  await expect(seen.getByRole("textbox", { name: "Добавить тег" })).toHaveCount(0);
  await view.context.close();
});
