import type { SQL } from "drizzle-orm";
import type { Variant } from "../../db/schema";
import type { Db } from "../lib/db";
import { bands, HASH_RE } from "../duplicates/hashes";
import { inlined } from "../lib/sql";

const SHA_RE = /^[0-9a-f]{64}$/;
const MAX_SCENES = 32;

/**
 * The metadata task's fingerprints into content_hashes and perceptual_hashes, as statements for the task's
 * result batch (functions/tasks/callbacks.ts), each guarded by "this run is still live" so a stale result writes
 * nothing. A variant's earlier fingerprints are replaced: a re-run of the task measures the same bytes afresh.
 * Malformed values are dropped rather than stored.
 */
export function fingerprintStatements(db: Db, src: Variant, tech: Record<string, unknown>, guard: SQL) {
  const stmts = [];
  if (typeof tech.sha256 === "string" && SHA_RE.test(tech.sha256))
    stmts.push(
      db.run(inlined`INSERT INTO content_hashes (variant_id, asset_id, version, sha256, size, ctime)
          SELECT ${src.variantId}, ${src.assetId}, ${src.version}, ${tech.sha256}, ${src.contentSize}, unixepoch() WHERE ${guard}
          ON CONFLICT (variant_id) DO UPDATE SET sha256 = excluded.sha256, size = excluded.size, ctime = excluded.ctime`),
    );
  const hashes: { kind: string; seq: number; hash: string }[] = [];
  for (const kind of ["dhash", "phash"] as const) {
    const h = tech[kind];
    if (typeof h === "string" && HASH_RE.test(h)) hashes.push({ kind, seq: 0, hash: h });
  }
  if (Array.isArray(tech.scene_hashes)) {
    const scenes = tech.scene_hashes.filter((h): h is string => typeof h === "string" && HASH_RE.test(h)).slice(0, MAX_SCENES);
    scenes.forEach((hash, seq) => {
      hashes.push({ kind: "scene", seq, hash });
    });
  }
  if ("dhash" in tech || "scene_hashes" in tech) {
    stmts.push(db.run(inlined`DELETE FROM perceptual_hashes WHERE variant_id = ${src.variantId} AND ${guard}`));
    for (const h of hashes) {
      const b = bands(h.hash);
      stmts.push(
        db.run(inlined`INSERT INTO perceptual_hashes (variant_id, asset_id, version, kind, seq, hash, b0, b1, b2)
            SELECT ${src.variantId}, ${src.assetId}, ${src.version}, ${h.kind}, ${h.seq}, ${h.hash}, ${b[0]}, ${b[1]}, ${b[2]}
            WHERE ${guard}`),
      );
    }
  }
  return stmts;
}
