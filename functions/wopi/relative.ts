import { createWithContent, sizedBody } from "../dav/content";
import { mimeFor } from "../dav/mime";
import { assetByName } from "../groups/asset-members";
import { loadAsset, patchAsset } from "../assets/service";
import { requireAssets } from "../assets/guard";
import { fileName } from "../../shared/assets/schemas";
import { accessContext } from "../lib/access";
import type { Env } from "../lib/env";
import { ApiError } from "../lib/errors";
import { notImplemented, requireWrite, type WopiCaller } from "./caller";
import { extensionOf } from "./discovery";
import { currentLock, lockConflict, requireWritable } from "./locks";
import { relativeGroup, wopiSrcOf, writeVersion } from "./service";
import { signWopiToken } from "./tokens";
import { decodeUtf7, encodeUtf7 } from "./utf7";

/** PUT_RELATIVE (a new file beside this one, "Save as") and RENAME_FILE. Names arrive UTF-7 encoded. */

const stem = (name: string) => {
  const dot = name.lastIndexOf(".");
  return dot > 0 ? name.slice(0, dot) : name;
};
const withSuffix = (name: string, n: number) => {
  const dot = name.lastIndexOf(".");
  return dot > 0 ? `${name.slice(0, dot)} (${n})${name.slice(dot)}` : `${name} (${n})`;
};

/** A name nobody in the group has yet: the name itself, else "name (2).ext", "name (3).ext", … */
async function freeName(c: WopiCaller, groupId: string, name: string) {
  const ctx = await accessContext(c.db, c.user);
  for (let n = 1; n < 1000; n++) {
    const candidate = n === 1 ? name : withSuffix(name, n);
    if (!(await assetByName(c.db, ctx, groupId, candidate))) return candidate;
  }
  throw new ApiError("conflict", "Не удалось подобрать свободное имя");
}

export async function putRelative(c: WopiCaller, env: Env, req: Request, origin: string): Promise<Response> {
  requireWrite(c);
  const suggested = req.headers.get("X-WOPI-SuggestedTarget");
  const relative = req.headers.get("X-WOPI-RelativeTarget");
  // The protocol: the two are mutually exclusive, and a host answers 501 when both come.
  if (suggested !== null && relative !== null) return notImplemented("X-WOPI-SuggestedTarget и X-WOPI-RelativeTarget вместе");
  if (suggested === null && relative === null) throw new ApiError("bad_request", "Нужен X-WOPI-SuggestedTarget или X-WOPI-RelativeTarget");
  const groupId = await relativeGroup(c.db, c.user, c.fileId);
  if (!groupId) throw new ApiError("unauthorized", "Нет права создавать файлы рядом с этим");
  const source = await loadAsset(c.db, c.fileId);
  let name = decodeUtf7((suggested ?? relative)!).trim();
  // A suggestion that starts with a dot is only an extension: the new file keeps this one's name.
  if (suggested !== null && name.startsWith(".")) name = `${stem(source.name)}${name}`;
  const valid = fileName.safeParse(name);
  if (!valid.success)
    throw new ApiError("bad_request", `Недопустимое имя файла «${name}»`, undefined, {
      "X-WOPI-InvalidFileNameError": "Invalid file name",
    });
  name = valid.data;
  if (suggested !== null) name = await freeName(c, groupId, name);
  else {
    const existing = await assetByName(c.db, await accessContext(c.db, c.user), groupId, name);
    if (existing) {
      const overwrite = (req.headers.get("X-WOPI-OverwriteRelativeTarget") ?? "").toLowerCase() === "true";
      if (!overwrite) {
        const free = await freeName(c, groupId, name);
        throw new ApiError("conflict", `Файл «${name}» уже есть`, undefined, { "X-WOPI-ValidRelativeTarget": encodeUtf7(free) });
      }
      const lock = await currentLock(c.db, existing.id);
      if (lock) throw lockConflict(lock.lockId, "target");
      await requireAssets(c.db, c.user, "update", [existing.id]);
      await writeVersion(c, env, req, existing.id);
      return Response.json(await answer(c, env, origin, existing.id, name));
    }
  }
  const { body, size } = await sizedBody(req);
  const mime = mimeFor(null, name, extensionOf(name) === extensionOf(source.name) ? source.mimetype : undefined);
  const id = await createWithContent(c.db, env, c.user, { groupId, name, mime }, body, size);
  return Response.json(await answer(c, env, origin, id, name));
}

async function answer(c: WopiCaller, env: Env, origin: string, fileId: string, name: string) {
  const write = await requireAssets(c.db, c.user, "update", [fileId]).then(
    () => true,
    () => false,
  );
  const { token } = await signWopiToken(env.JWT_SECRET, {
    userId: c.user.userId,
    sessionId: c.user.sessionId,
    fileId,
    write,
    proof: c.proof,
  });
  return {
    Name: name,
    Url: `${wopiSrcOf(origin, fileId)}?access_token=${encodeURIComponent(token)}`,
    HostViewUrl: `${origin}/asset/${fileId}`,
    HostEditUrl: `${origin}/editor/${fileId}`,
  };
}

/** RENAME_FILE: X-WOPI-RequestedName is the new name without its extension (the file keeps its own). */
export async function renameFile(c: WopiCaller, req: Request) {
  requireWrite(c);
  const requested = req.headers.get("X-WOPI-RequestedName");
  if (requested === null) throw new ApiError("bad_request", "Нет заголовка X-WOPI-RequestedName");
  await requireWritable(c.db, c.fileId, req.headers.get("X-WOPI-Lock") ?? undefined, "any");
  const source = await loadAsset(c.db, c.fileId);
  const ext = extensionOf(source.name);
  const stemName = decodeUtf7(requested).trim();
  const valid = fileName.safeParse(ext ? `${stemName}.${ext}` : stemName);
  if (!stemName || !valid.success)
    throw new ApiError("bad_request", `Недопустимое имя файла «${stemName}»`, undefined, {
      "X-WOPI-InvalidFileNameError": "Invalid file name",
    });
  await patchAsset(c.db, c.user, c.fileId, { asset_name: valid.data });
  return { Name: stemName };
}
