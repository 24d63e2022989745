import { api } from "../helpers";
import { call, placeAsset } from "../fixtures";
import { json, randomBytes, uploadFile } from "../uploads.helpers";
import type { PersonaName, World } from "./types";

/**
 * Assets for the matrix, made by the admin through the API. The shared asset lies in S and also in
 * the private top-level group P, so a route that lists an asset's groups without filtering them
 * leaks P's name or id (the matrix's leak check catches it).
 */

export interface WorldAsset {
  id: string;
  name: string;
  /** Its one variant (version 1, initial, application/pdf, with a preview image). */
  variantId: string;
}

let counter = 0;
const assets = new WeakMap<World, Promise<WorldAsset>>();

/** A fresh asset in S (no content), named with the world's tag; its name and id are secrets. */
export async function freshAsset(w: World) {
  const name = `${w.tag} файл ${++counter}.pdf`;
  const r = await call("/api/asset/create", {
    method: "POST",
    json: { asset_name: name, asset_mime: "application/pdf", in_group: w.shared.id },
    bearer: w.adminBearer,
  });
  if (r.status !== 200) throw new Error(`asset create failed: ${r.text}`);
  return { id: r.body.asset_id as string, name, secrets: [name, r.body.asset_id as string] };
}

/** A fresh asset in S with one uploaded variant. */
export async function freshAssetWithContent(w: World) {
  const a = await freshAsset(w);
  const { done } = await uploadFile(w.adminBearer, a.id, randomBytes(64), { mime: "application/pdf", name: "doc.pdf" });
  return { ...a, variantId: done.variant_id as string };
}

/**
 * The object a mutating call acts on: a fresh asset for the personas expected to succeed (so each
 * changes its own), the shared one for everyone else (refused before anything changes).
 */
export async function target(w: World, as: PersonaName, winners: PersonaName[] = ["editor", "admin"], content = false) {
  if (winners.includes(as)) return content ? freshAssetWithContent(w) : { ...(await freshAsset(w)), variantId: "" };
  const a = await sharedAsset(w);
  return { ...a, secrets: [a.name, a.id, a.variantId] };
}

/** The shared asset (built once per world): in S and P, with content and a preview. */
export function sharedAsset(w: World): Promise<WorldAsset> {
  let a = assets.get(w);
  if (!a) {
    a = (async () => {
      const made = await freshAssetWithContent(w);
      await placeAsset(w.priv.id, made.id);
      const res = await api(`/api/asset/upload-preview/${made.variantId}`, {
        method: "POST",
        bearer: w.adminBearer,
        body: randomBytes(100),
        headers: { "Content-Type": "image/png" },
      });
      if (res.status !== 200) throw new Error(`preview failed: ${await res.text()}`);
      return { id: made.id, name: made.name, variantId: made.variantId };
    })();
    assets.set(w, a);
  }
  return a;
}

const sharedUploads = new WeakMap<World, ReturnType<typeof startedUpload>>();

/**
 * An upload the editor started: a fresh one for the editor and admins (each completes or aborts its
 * own), one shared upload for everyone else (refused with 404 before anything changes).
 */
export function freshUpload(w: World, as: PersonaName = "editor", size = 12) {
  if (as === "editor" || as === "admin") return startedUpload(w, size);
  let up = sharedUploads.get(w);
  if (!up) sharedUploads.set(w, (up = startedUpload(w, size)));
  return up;
}

async function startedUpload(w: World, size: number) {
  const a = await freshAsset(w);
  const bearer = w.users.editor.bearer!;
  const up = await json(
    api("/api/ul/start", { method: "POST", bearer, json: { asset_id: a.id, size, name: "doc.pdf", mime: "application/pdf" } }),
  );
  return { upload: up as { upload_id: string; part_size: number }, bearer, secrets: a.secrets };
}

/** A Worker-path part URL for part 1 of an upload of `size` bytes (see freshUpload). */
export async function partUrl(w: World, as: PersonaName, size: number) {
  const { upload, bearer, secrets } = await freshUpload(w, as, size);
  const [t] = await json<{ url: string }[]>(api(`/api/ul/${upload.upload_id}/targets`, { method: "POST", bearer, json: { parts: [1] } }));
  return { upload, bearer, secrets, url: new URL(t.url) };
}
