import { and, asc, eq, sql } from "drizzle-orm";
import { expect } from "vitest";
import { events, variants } from "../../db/schema";
import { nowSeconds } from "../../db/schema/columns";
import { admin, call, db, grant, mkGroup, mkPerson, uniq, VIRTUAL_ROOT } from "./fixtures";
import { randomBytes, uploadFile } from "./uploads.helpers";

/** Fixtures for /api/review (docs/decisions/061-review-and-approval.md). */

/** A video asset with one uploaded version in a fresh group, a reader and an editor of that group. */
export async function reviewWorld() {
  const group = await mkGroup(VIRTUAL_ROOT);
  const name = `${uniq("Ролик")}.mp4`;
  const r = await call("/api/asset/create", {
    method: "POST",
    json: { asset_name: name, asset_mime: "video/mp4", in_group: group },
    bearer: await admin(),
  });
  expect(r.status, r.text).toBe(200);
  const id = r.body.asset_id as string;
  await uploadFile(await admin(), id, randomBytes(64), { mime: "video/mp4", name });
  const [reader, reader2, editor, outsider] = await Promise.all([mkPerson(), mkPerson(), mkPerson(), mkPerson()]);
  await grant(reader.id, group, ["read"]);
  await grant(reader2.id, group, ["read"]);
  await grant(editor.id, group, ["read", "update"]);
  return { id, name, group, reader, reader2, editor, outsider };
}

/** A new version of the asset (an upload without a version number). */
export async function newVersion(assetId: string) {
  await uploadFile(await admin(), assetId, randomBytes(64, 2), { mime: "video/mp4", name: "v.mp4" });
}

/** The version's proxy as the transcoder leaves it: a proxy variant whose technical fields carry ffprobe's r_frame_rate. */
export async function setProxyRate(assetId: string, version: number, rFrameRate: string) {
  await db()
    .insert(variants)
    .values({
      variantId: crypto.randomUUID(),
      assetId,
      version,
      storageId: "proxy-test",
      objectKey: `proxy/${crypto.randomUUID()}`,
      name: "proxy",
      mimeType: "video/mp4",
      format: "mp4",
      variantType: "proxy_lowres",
      contentSize: 1,
      fileName: "proxy.mp4",
      etag: "x",
      techProps: { r_frame_rate: rFrameRate, frame_rate: 0 },
      ctime: nowSeconds(),
    });
}

export async function comment(bearer: string, json: Record<string, unknown>) {
  const r = await call("/api/review/comments", { method: "POST", json, bearer });
  expect(r.status, r.text).toBe(200);
  return r.body.comment_id as string;
}

export async function listOf(assetId: string, bearer: string, version?: number) {
  const r = await call(`/api/review/comments?asset_id=${assetId}${version ? `&version=${version}` : ""}`, { bearer });
  expect(r.status, r.text).toBe(200);
  return r.body as { version: number; rate: { fps_num: number; fps_den: number } | null; pages: number | null; items: any[] };
}

/** The asset's events of a kind, oldest first. */
export const eventsOf = (assetId: string, kind: string) =>
  db()
    .select()
    .from(events)
    .where(and(eq(events.entityId, assetId), eq(events.kind, kind)))
    .orderBy(asc(sql`rowid`));

/** The fields a 400 names. */
export const fieldsOf = (r: { status: number; body: any }) => {
  expect(r.status).toBe(400);
  return (r.body.error.details as { field: string }[]).map((d) => d.field);
};
