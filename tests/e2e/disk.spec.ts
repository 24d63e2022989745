import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Page } from "@playwright/test";
import { fuseProblem, isMounted, unmount } from "../../helper/mount.mjs";
import { createHelper } from "../../helper/server.mjs";
import { Seeder, unique } from "./browse-seed";
import { ADMIN, expect, gotoSignedIn, test } from "./fixtures";

/**
 * "Подключить как диск" with the disk helper (helper/) on its port 18981: the helper runs in this process,
 * with the app's origin on its allowlist. These tests share the port, so they run one after another.
 */

test.use({ signedInAs: ADMIN });
test.describe.configure({ mode: "serial" });

const home = () => mkdtempSync(path.join(tmpdir(), "mam-helper-e2e-"));
const mountButton = (page: Page) => page.getByRole("button", { name: "Подключить как диск" });

type Mount = { dir: string; url: string; login: string };

async function withHelper(baseURL: string, fakeMount: (m: Mount) => Promise<void>, run: (home: string) => Promise<void>) {
  const mount = async (m: Mount) => {
    await fakeMount(m);
    return undefined;
  };
  const dir = home();
  const helper = createHelper({ port: 18981, home: dir, origins: [baseURL], mount, backend: () => "rclone" });
  await helper.listen();
  try {
    await run(dir);
  } finally {
    await helper.close();
  }
}

test("with the helper stopped, the button explains how to install and start it", async ({ page }) => {
  const seed = await Seeder.admin();
  const name = unique("Диск");
  await gotoSignedIn(page, `/mam/${await seed.group(name)}`);
  await mountButton(page).click();
  const dialog = page.getByRole("dialog", { name: "Помощник дисков не запущен" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText("npx mam-helper")).toBeVisible();
});

test("a mount the helper reports as done shows its path; a failed one shows the helper's text", async ({ page, baseURL }) => {
  const seed = await Seeder.admin();
  const name = unique("Диск");
  const groupId = await seed.group(name);
  const asked: Mount[] = [];
  await withHelper(
    baseURL!,
    async (m) => {
      asked.push(m);
    },
    async (dir) => {
      await gotoSignedIn(page, `/mam/${groupId}`);
      await mountButton(page).click();
      await expect(page.getByText(`Группа «${name}» подключена: ${path.join(dir, "МАМ", name)}`)).toBeVisible();
      expect(asked).toHaveLength(1);
      expect(asked[0].login).toBe(ADMIN.login);
      expect(new URL(asked[0].url).pathname).toBe(`/dav/${encodeURIComponent(name)}/`);
    },
  );
  const other = unique("Диск");
  const otherId = await seed.group(other);
  await withHelper(
    baseURL!,
    async () => {
      throw new Error("Нет доступа к /dev/fuse: FUSE недоступен на этой машине");
    },
    async () => {
      await gotoSignedIn(page, `/mam/${otherId}`);
      await mountButton(page).click();
      await expect(page.getByText("Нет доступа к /dev/fuse: FUSE недоступен на этой машине")).toBeVisible();
    },
  );
});

test("where FUSE works, the button mounts the group for real and its file is on the disk", async ({ page, baseURL }) => {
  const problem = fuseProblem();
  test.skip(problem !== null, `FUSE is not usable here: ${problem}`);
  const seed = await Seeder.admin();
  const name = unique("Диск");
  const groupId = await seed.group(name);
  const local = path.join(home(), "заметка.txt");
  writeFileSync(local, "с сервера на диск");
  await seed.uploadInto(groupId, local, "text/plain");
  const dir = home();
  const helper = createHelper({ port: 18981, home: dir, origins: [baseURL!] });
  await helper.listen();
  const mounted = path.join(dir, "МАМ", name);
  try {
    await gotoSignedIn(page, `/mam/${groupId}`);
    await mountButton(page).click();
    await expect(page.getByText(`Группа «${name}» подключена: ${mounted}`)).toBeVisible({ timeout: 20_000 });
    await expect.poll(() => readFileSync(path.join(mounted, "заметка.txt"), "utf8"), { timeout: 15_000 }).toBe("с сервера на диск");
  } finally {
    if (isMounted(mounted)) unmount(mounted);
    await helper.close();
  }
});

test("the tree's group menu offers the mount too", async ({ page }) => {
  const seed = await Seeder.admin();
  const name = unique("Диск");
  await gotoSignedIn(page, `/mam/${await seed.group(name)}`);
  await page
    .getByRole("tree", { name: "Дерево групп" })
    .getByRole("treeitem")
    .filter({ hasText: name })
    .getByRole("button", { name: `Действия с группой ${name}` })
    .click();
  await page.getByRole("menuitem", { name: "Подключить как диск" }).click();
  await expect(page.getByRole("dialog", { name: "Помощник дисков не запущен" })).toBeVisible();
});

test("an app password is shown once, listed by name, and revoked", async ({ page }) => {
  await gotoSignedIn(page, "/mam");
  await page.getByRole("button", { name: "Пароли приложений" }).click();
  const dialog = page.getByRole("dialog", { name: "Пароли приложений" });
  const name = unique("rclone");
  await dialog.getByLabel("Название").fill(name);
  await dialog.getByRole("button", { name: "Создать" }).click();
  await expect(dialog.getByTestId("new-app-password")).toHaveText(/^mamapp_/);
  const row = dialog.getByRole("row").filter({ hasText: name });
  await expect(row).toContainText("ещё не использовался");
  await row.getByRole("button", { name: "Отозвать" }).click();
  await expect(page.getByText("Пароль приложения отозван")).toBeVisible();
  await expect(dialog.getByRole("row").filter({ hasText: name })).toHaveCount(0);
});
