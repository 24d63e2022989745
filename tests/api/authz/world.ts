import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { groups } from "../../../db/schema";
import { getDb } from "../../../functions/lib/db";
import { admin, call, disable, grant, issueToken, mkGroup, mkPerson, uniq, VIRTUAL_ROOT } from "../fixtures";
import type { World, WorldGroup } from "./types";

/** Builds the matrix's world: one tree, one user per persona, each with the rights its name says. */
export async function buildWorld(): Promise<World> {
  const tag = uniq("Матрица");
  const named = async (parent: string, label: string): Promise<WorldGroup> => {
    const name = `${tag} ${label}`;
    return { id: await mkGroup(parent, name), name };
  };
  const root = await named(VIRTUAL_ROOT, "корень");
  const shared = await named(root.id, "общая");
  const chrootArea = await named(root.id, "загон");
  const priv = await named(VIRTUAL_ROOT, "личная");

  const [none, reader, editor, chrooted, robot, disabled] = await Promise.all([
    mkPerson(),
    mkPerson(),
    mkPerson(),
    mkPerson({ chroot: [chrootArea.id] }),
    mkPerson({ robot: true }),
    mkPerson(),
  ]);
  await grant(reader.id, shared.id, ["read"]);
  await grant(editor.id, shared.id, ["read", "update"]);
  await grant(chrooted.id, root.id, ["read", "update"]);
  await grant(robot.id, shared.id, ["read"]);
  await grant(disabled.id, shared.id, ["read"]);
  await disable(disabled.id);
  const { token } = await issueToken(robot.id);
  const adminBearer = await admin();
  const adminId = (await call("/api/auth/whoami", { bearer: adminBearer })).body.id as string;

  let n = 0;
  const freshInShared = () => named(shared.id, `новая ${++n}`);
  return {
    tag,
    root,
    shared,
    chrootArea,
    priv,
    adminBearer,
    users: {
      none,
      reader,
      editor,
      chrooted,
      robot: { id: robot.id, bearer: token },
      disabled,
      admin: { id: adminId, bearer: adminBearer },
    },
    freshInShared,
    async deletedInShared() {
      const g = await freshInShared();
      const r = await call(`/api/group/delete/${g.id}`, { method: "DELETE", bearer: adminBearer });
      if (r.status !== 200) throw new Error(`delete failed: ${r.text}`);
      const row = await getDb(env).select({ d: groups.deletedAt }).from(groups).where(eq(groups.groupId, g.id)).get();
      if (row?.d == null) throw new Error("group not deleted");
      return g;
    },
  };
}
