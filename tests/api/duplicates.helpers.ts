import { eq } from "drizzle-orm";
import { expect } from "vitest";
import { variants, versions } from "../../db/schema";
import { nowSeconds } from "../../db/schema/columns";
import { db } from "./fixtures";
import { api } from "./helpers";
import { handedOverTask, mkMediaAsset, T } from "./tasks.helpers";

/** Fixtures for duplicates and look-alikes: assets whose metadata task the (fake) transcoder finishes with given fingerprints. */

export const randomSha = () => [...crypto.getRandomValues(new Uint8Array(32))].map((b) => b.toString(16).padStart(2, "0")).join("");
export const randomHash = () => [...crypto.getRandomValues(new Uint8Array(8))].map((b) => b.toString(16).padStart(2, "0")).join("");

/** `hash` with its first `n` bits flipped (Hamming distance n). */
export function flip(hash: string, n: number): string {
  let v = BigInt(`0x${hash}`);
  for (let i = 0; i < n; i++) v ^= 1n << BigInt(63 - i);
  return v.toString(16).padStart(16, "0");
}

/** Hands the metadata task of `a`'s variant to a fake transcoder and posts its result with `tech`, as the real one would. */
export async function finishMetadata(a: { assetId: string; variantId: string }, tech: Record<string, unknown>) {
  const job = await handedOverTask(a, T.metadata);
  const res = await api(`${job.callback.url}/result`, {
    method: "POST",
    headers: { "X-Task-Token": job.callback.token },
    json: { run: job.run, tech },
  });
  expect(res.status, await res.clone().text()).toBe(200);
}

/** An asset in `group` whose original the transcoder hashed to `tech`. */
export async function fingerprinted(
  group: string | null,
  owner: string,
  tech: Record<string, unknown>,
  opts: { mime?: string; name?: string } = {},
) {
  const a = await mkMediaAsset(group, owner, opts);
  await finishMetadata(a, tech);
  return a;
}

/** A second version of `assetId` with a fresh initial variant (no fingerprints yet). */
export async function addVersion(assetId: string, owner: string, template: { variantId: string }) {
  const old = (await db().select().from(variants).where(eq(variants.variantId, template.variantId)).get())!;
  const variantId = crypto.randomUUID();
  const now = nowSeconds();
  await db().batch([
    db().insert(versions).values({ assetId, version: 2, userId: owner, ctime: now }),
    db()
      .insert(variants)
      .values({ ...old, variantId, version: 2, ctime: now }),
  ]);
  return { assetId, variantId };
}
