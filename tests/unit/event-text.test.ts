import { describe, expect, it } from "vitest";
import { describeEvent, partsText } from "../../app/lib/event-text";

/** Events as the journal and an asset's «История» read them (docs/decisions/057-readable-history.md). */

const asset = "a0000000-0000-4000-8000-000000000001";
const group = "b0000000-0000-4000-8000-000000000002";
const user = "c0000000-0000-4000-8000-000000000003";
const variant = "d0000000-0000-4000-8000-000000000004";
const task = "e0000000-0000-4000-8000-000000000005";
const hidden = "f0000000-0000-4000-8000-000000000006";

const base = { user_id: user, user_name: "Анна Смирнова", entity_type: "asset", entity_id: asset, entity_name: "Интервью с министром.mp4" };
const names = {
  [asset]: { type: "asset", name: "Интервью с министром.mp4" },
  [group]: { type: "group", name: "Новости" },
  [user]: { type: "user", name: "Анна Смирнова" },
  [variant]: { type: "variant", name: "initial", version: 2 },
  [task]: { type: "task", name: "Превью", num: 17 },
};
const admin = { admin: true };
const member = { admin: false };

describe("describeEvent", () => {
  it("says an upload in words: the version and its size", () => {
    const text = describeEvent(
      { ...base, kind: "upload.complete", data: { upload_id: hidden, version: 2, variant_id: variant, size: 3_565_158 }, names },
      member,
    );
    expect(text.action).toBe("Загрузка завершена");
    expect(partsText(text.details)).toBe("загружена версия 2, 3,40 МБ");
    expect(text.object).toEqual({ text: "Интервью с министром.mp4", href: `/asset/${asset}` });
  });

  it("names a task by number and template and says its status change", () => {
    const text = describeEvent(
      {
        ...base,
        user_id: null,
        user_name: null,
        kind: "task.status",
        entity_type: "task",
        entity_id: task,
        entity_name: null,
        data: { event: "finished", from: "running", to: "done" },
        names,
      },
      member,
    );
    expect(text.object).toEqual({ text: "задача №17 · Превью", href: `/jobs/${task}` });
    expect(partsText(text.details)).toBe("статус: выполняется → готово");
    expect(text.actor).toBeNull();
  });

  it("links the objects it names, users only for admins", () => {
    const e = { ...base, kind: "asset.create", data: { name: "Интервью с министром.mp4", group }, names };
    const forAdmin = describeEvent(e, admin);
    expect(forAdmin.details).toEqual(["в группе ", { text: "Новости", href: `/mam/${group}` }]);
    expect(forAdmin.actor).toEqual({ text: "Анна Смирнова", href: `/admin/user/${user}` });
    expect(describeEvent(e, member).actor).toEqual({ text: "Анна Смирнова" });
  });

  it("never prints an id it has no name for", () => {
    const text = describeEvent({ ...base, kind: "asset.copy", data: { from: hidden, group }, names }, member);
    expect(partsText(text.details)).toBe("в группе Новости");
    const other = describeEvent({ ...base, kind: "something.new", data: { target: hidden, count: 3, ok: true }, names }, admin);
    expect(partsText(other.details)).toBe("count: 3, ok: да");
    expect(JSON.stringify(other)).not.toContain(hidden);
  });

  it("reads a deleted object by the name the event kept, without a link", () => {
    const text = describeEvent({ ...base, kind: "asset.delete", entity_name: null, data: null, names }, admin);
    expect(text.action).toBe("Файл удалён");
    expect(text.object).toEqual({ text: "Интервью с министром.mp4" });
    expect(text.details).toEqual([]);
  });

  it("says rights and sign-ins in words", () => {
    const acl = describeEvent(
      {
        ...base,
        kind: "acl.created",
        entity_type: "group",
        entity_id: group,
        data: { subj: { type: "user", id: user }, acl: ["read", "download"] },
        names,
      },
      admin,
    );
    expect(partsText(acl.details)).toBe("кому: Анна Смирнова, права: чтение, скачивание");
    const login = describeEvent(
      { ...base, kind: "auth.login", entity_type: "user", entity_id: user, data: { ip: "10.0.0.7", method: "password" }, names },
      admin,
    );
    expect(login.action).toBe("Вход");
    expect(partsText(login.details)).toBe("по паролю, IP 10.0.0.7");
  });

  it("keeps an unknown kind readable as it is", () => {
    expect(describeEvent({ ...base, kind: "x.y", data: null, names: {} }, admin).action).toBe("x.y");
  });
});
