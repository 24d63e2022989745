import { admin, call, mkGroup, uniq, VIRTUAL_ROOT } from "./fixtures";

/** Set-up for the field tests: templates, lists and assets through the API (the behaviour under test is elsewhere). */

export async function mkTemplate(field_type: string, field_setup: Record<string, unknown> = {}, name = uniq("Поле")) {
  const r = await call("/api/fields/templates", {
    method: "POST",
    json: { field_def_name: name, field_type, field_setup },
    bearer: await admin(),
  });
  if (r.status !== 200) throw new Error(`template failed: ${r.status} ${r.text}`);
  return r.body.field_def_id as string;
}

export async function mkList(records: string[]) {
  const bearer = await admin();
  const r = await call("/api/lists", { method: "POST", json: { list_name: uniq("Список") }, bearer });
  if (r.status !== 200) throw new Error(`list failed: ${r.status} ${r.text}`);
  for (const rec_data of records) await call(`/api/lists/records/${r.body.list_id}`, { method: "POST", json: { rec_data }, bearer });
  return r.body.list_id as string;
}

/** An asset the admin made in `group` (a fresh top-level group by default). */
export async function mkAsset(group?: string, name = uniq("Кадр")) {
  const in_group = group ?? (await mkGroup(VIRTUAL_ROOT));
  const r = await call("/api/asset/create", {
    method: "POST",
    json: { asset_name: `${name}.mov`, asset_mime: "video/quicktime", in_group },
    bearer: await admin(),
  });
  if (r.status !== 200) throw new Error(`asset failed: ${r.status} ${r.text}`);
  return r.body.asset_id as string;
}

export async function setValue(body: Record<string, unknown>, bearer?: string) {
  return call("/api/fields/create", { method: "POST", json: { entity_type: "asset", ...body }, bearer: bearer ?? (await admin()) });
}

export const fieldsOf = (r: { body: any }) => ((r.body?.error?.details ?? []) as { field: string }[]).map((d) => d.field);
