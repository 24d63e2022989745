import { api } from "../helpers";
import { sharedAsset, target } from "./asset-world";
import { onShared, type Expectation, type PersonaName, type RouteCase, type World } from "./types";

/**
 * /api/wopi (docs/decisions/046-wopi.md). The token route takes the bearer and needs read on the file. The file
 * routes take no bearer: each persona calls them with the access token it could get (none for anonymous,
 * disabled, and those who cannot read S: 401). Reading takes read (GetFile: download, for the original);
 * writing takes a token made with update.
 */

async function tokenOf(w: World, as: PersonaName, id: string) {
  const bearer = as === "anonymous" ? undefined : (w.users[as].bearer ?? undefined);
  if (!bearer) return "";
  const res = await api(`/api/wopi/token/${id}`, { method: "POST", bearer });
  return res.status === 200 ? ((await res.json()) as { access_token: string }).access_token : "";
}

const byToken = (reader: number, editor: number, admin = 200): Expectation => ({
  anonymous: 401,
  disabled: 401,
  none: 401,
  chrooted: 401,
  reader,
  robot: reader,
  editor,
  admin,
});

const file = async (w: World, as: PersonaName, suffix = "", write = false) => {
  const a = write ? await target(w, as) : await sharedAsset(w);
  return {
    path: `/api/wopi/files/${a.id}${suffix}?access_token=${encodeURIComponent(await tokenOf(w, as, a.id))}`,
    secrets: [a.name, a.id],
  };
};

export const wopiCases: RouteCase[] = [
  {
    route: "POST /api/wopi/token/:id",
    request: async (w) => ({ method: "POST", path: `/api/wopi/token/${(await sharedAsset(w)).id}` }),
    expect: onShared(200, 200),
  },
  { route: "GET /api/wopi/files/:id", request: (w, as) => file(w, as), expect: byToken(200, 200) },
  // The shared asset's original needs download, which only admins hold in the world.
  { route: "GET /api/wopi/files/:id/contents", request: (w, as) => file(w, as, "/contents"), expect: byToken(403, 403) },
  {
    // PutFile into a fresh empty asset (allowed unlocked while empty); read-only tokens are refused first.
    route: "POST /api/wopi/files/:id/contents",
    request: async (w, as) => ({
      method: "POST",
      ...(await file(w, as, "/contents", true)),
      body: "новый текст",
      headers: { "X-WOPI-Override": "PUT" },
    }),
    expect: byToken(401, 200),
  },
  {
    route: "POST /api/wopi/files/:id",
    request: async (w, as) => ({
      method: "POST",
      ...(await file(w, as, "", true)),
      headers: { "X-WOPI-Override": "LOCK", "X-WOPI-Lock": `lock-${as}` },
    }),
    expect: byToken(401, 200),
  },
];
