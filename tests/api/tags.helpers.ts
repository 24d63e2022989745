import { expect } from "vitest";
import { admin, call } from "./fixtures";

/** Creates a tag as `bearer` (the admin by default) and answers its id. */
export async function mkTag(name: string, bearer?: string): Promise<string> {
  const r = await call("/api/tags/create", { method: "POST", json: { tag_name: name }, bearer: bearer ?? (await admin()) });
  expect(r.status, r.text).toBe(200);
  return r.body.tag_id;
}

/** Assets made by the admin in `group`: their ids. */
export async function mkAssets(group: string, count: number): Promise<string[]> {
  const r = await call("/api/asset/create-list", {
    method: "POST",
    bearer: await admin(),
    json: { assets: Array.from({ length: count }, (_, i) => ({ asset_name: `Кадр ${i}.jpg`, asset_mime: "image/jpeg", in_group: group })) },
  });
  expect(r.status, r.text).toBe(200);
  return r.body.map((a: { asset_id: string }) => a.asset_id);
}

/** The `field` names of a 400's details. */
export const fieldsOf = (r: { body: { error?: { details?: { field: string }[] } } }) => r.body.error?.details?.map((d) => d.field) ?? [];
