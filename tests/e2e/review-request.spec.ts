import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { makePdf } from "../media/media";
import { Seeder, unique } from "./browse-seed";
import { ADMIN, expect, openSignedIn, test } from "./fixtures";

/**
 * «Запросить согласование» in the viewer (issue 38, docs/decisions/061-review-and-approval.md "Requesting review in
 * the viewer"): the admin asks a team member picked by name and an outside address; a refusal of the server sits
 * under the input holding the address it names; the answer's review link is shown, the approval bar lists both
 * reviewers as «Ожидает», the asset's share links mark the review link, and the link opens the guest page in a
 * fresh browser.
 */

const dir = mkdtempSync(path.join(tmpdir(), "mam-review-request-"));

test("a user asks a colleague and an outside address for approval; the link opens the guest page", async ({ page, browser }) => {
  test.setTimeout(120_000);
  const seed = await Seeder.admin();
  const groupId = await seed.group(unique("Запрос согласования"));
  const fileName = `${unique("макет").replace(" ", "-")}.pdf`;
  const file = path.join(dir, fileName);
  writeFileSync(file, makePdf(1));
  const assetId = await seed.uploadInto(groupId, file, "application/pdf");

  // A colleague who can read the file, and an address that is a disabled user's login (no outsider: the API refuses it).
  const tag = Date.now().toString(36) + Math.random().toString(36).slice(2, 6);
  const colleague = await seed.call("/api/user", {
    json: { user_name: `Рецензент ${tag}`, user_login: `reviewer-${tag}`, user_passwd: "reviewer-password-1", enabled: true },
  });
  await seed.call("/api/user/acl", { json: { subj: colleague.user_id, obj: groupId, acl: ["read"] } });
  const disabledLogin = `off-${tag}@example.com`;
  const disabled = await seed.call("/api/user", {
    json: { user_name: `Отключённый ${tag}`, user_login: disabledLogin, user_passwd: "disabled-password-1", enabled: true },
  });
  await seed.call(`/api/user/${disabled.user_id}`, { method: "PATCH", json: { enabled: false } });
  const address = `guest-${tag}@outside.example`;

  await openSignedIn(page, ADMIN, `/mam/${groupId}/asset/${assetId}`);
  const bar = page.getByTestId("approval-bar");
  await bar.getByRole("button", { name: "Запросить согласование" }).click();
  const dialog = page.getByRole("dialog", { name: "Запросить согласование" });
  await expect(dialog).toBeVisible();

  // Nobody named: the form says so before anything is sent.
  await dialog.getByRole("button", { name: "Запросить", exact: true }).click();
  await expect(dialog.getByText("Укажите хотя бы одного рецензента")).toBeVisible();

  await dialog.getByLabel("Рецензенты из команды").fill(`Рецензент ${tag}`);
  await page.getByRole("option", { name: `Рецензент ${tag} (reviewer-${tag})`, exact: true }).click();
  const emails = dialog.getByLabel("Рецензенты по e-mail");
  await emails.fill(`${address}, ${disabledLogin}`);
  await dialog.getByLabel("Все должны одобрить").check();
  await dialog.getByRole("button", { name: "Запросить", exact: true }).click();
  // reviewers.2 is the second address: its message sits under the addresses' input.
  await expect(dialog.getByText("пользователь с таким логином отключён")).toBeVisible();
  await expect(emails).toHaveAttribute("aria-invalid", "true");

  await emails.fill(address);
  await dialog.getByRole("button", { name: "Запросить", exact: true }).click();
  const link = dialog.getByTestId("review-link");
  await expect(link).toHaveCount(1);
  await expect(link).toContainText(address);
  const url = (await link.getByTestId("review-link-url").textContent())?.trim() ?? "";
  expect(url).toMatch(/\/review\/[0-9A-Za-z]{22}$/);
  await dialog.getByRole("button", { name: "Готово" }).click();
  await expect(dialog).toBeHidden();

  // The bar reads the round again: both reviewers, pending, under the «all» rule.
  await expect(bar.getByTestId("approval-status")).toHaveText("Ожидает");
  const reviewers = bar.getByTestId("approval-reviewer");
  await expect(reviewers.filter({ hasText: `Рецензент ${tag}` })).toHaveText(`Рецензент ${tag}: Ожидает`);
  await expect(reviewers.filter({ hasText: address })).toHaveText(`${address}: Ожидает`);
  expect((await seed.call(`/api/review/approval/${assetId}`)).all_must_approve).toBe(true);

  // The asset's share links mark the review link with its reviewer's address.
  await page.goto(`/asset/${assetId}`);
  const panel = page.getByRole("region", { name: "Поделиться" });
  await expect(panel.getByTestId("review-link-kind")).toHaveText(`Ссылка на согласование для ${address}`);

  // The link in a browser with no session: the guest page, naming the file and asking the guest's name.
  const guestContext = await browser.newContext();
  try {
    const guest = await guestContext.newPage();
    await guest.goto(url);
    await expect(guest.getByRole("heading", { name: fileName })).toBeVisible();
    await expect(guest.getByLabel("Ваше имя")).toBeVisible();
  } finally {
    await guestContext.close();
  }
});
