import { davPath } from "../dav.helpers";
import { freshAsset, sharedAsset, target } from "./asset-world";
import { call } from "../fixtures";
import { onShared, open, signedIn, type PersonaName, type RouteCase, type World } from "./types";

/**
 * WebDAV (functions/dav, docs/decisions/036-webdav-and-disk-helper.md): each caller's tree starts at its
 * top-most readable groups, so S is /dav/R/S/ for the admin and /dav/S/ for its readers; callers who
 * cannot read S find nothing there (404). Each method needs the right its API twin needs.
 */

const inShared = (w: World, as: PersonaName, ...rest: string[]) =>
  as === "admin" ? davPath(w.root.name, w.shared.name, ...rest) : davPath(w.shared.name, ...rest);
const destination = (w: World, as: PersonaName, name: string) => ({ Destination: `http://mam.test${inShared(w, as, name)}` });
/**
 * Methods that may create the name they are sent to (PUT, MKCOL, LOCK) answer 409 when its folder is
 * missing (RFC 4918): a folder the caller cannot read is missing to it, exactly like one that never was.
 */
const creating = (reader: number, editor: number, admin: number) => ({ ...onShared(reader, editor, admin), none: 409, chrooted: 409 });
let n = 0;
const fresh = (w: World, ext = "txt") => `${w.tag} dav ${++n}.${ext}`;

const lockBody = `<?xml version="1.0"?><D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockinfo>`;
const patchBody = `<?xml version="1.0"?><D:propertyupdate xmlns:D="DAV:" xmlns:Z="urn:x"><D:set><D:prop><Z:a>1</Z:a></D:prop></D:set></D:propertyupdate>`;

export const davCases: RouteCase[] = [
  { route: "OPTIONS /dav/*", request: () => ({ method: "OPTIONS", path: "/dav/" }), expect: open(200) },
  {
    route: "PROPFIND /dav/*",
    request: (w, as) => ({ method: "PROPFIND", path: inShared(w, as), headers: { Depth: "0" } }),
    expect: onShared(207, 207, 207),
  },
  {
    route: "GET /dav/*",
    request: async (w, as) => ({ path: inShared(w, as, (await sharedAsset(w)).name) }),
    expect: onShared(403, 403, 200),
  },
  {
    route: "HEAD /dav/*",
    request: async (w, as) => ({ method: "HEAD", path: inShared(w, as, (await sharedAsset(w)).name) }),
    expect: onShared(403, 403, 200),
  },
  {
    route: "PUT /dav/*",
    request: (w, as) => ({ method: "PUT", path: inShared(w, as, fresh(w)), body: "text" }),
    expect: creating(403, 403, 201),
  },
  {
    route: "DELETE /dav/*",
    request: async (w, as) => {
      const a = await target(w, as, ["admin"]);
      return { method: "DELETE", path: inShared(w, as, a.name), secrets: a.secrets };
    },
    expect: onShared(403, 403, 204),
  },
  {
    route: "MKCOL /dav/*",
    request: (w, as) => ({ method: "MKCOL", path: inShared(w, as, fresh(w, "d")) }),
    expect: creating(403, 403, 201),
  },
  {
    route: "COPY /dav/*",
    request: async (w, as) => ({
      method: "COPY",
      path: inShared(w, as, (await sharedAsset(w)).name),
      headers: destination(w, as, fresh(w, "pdf")),
    }),
    expect: onShared(403, 403, 201),
  },
  {
    route: "MOVE /dav/*",
    request: async (w, as) => {
      const a = await target(w, as);
      return { method: "MOVE", path: inShared(w, as, a.name), headers: destination(w, as, fresh(w, "pdf")), secrets: a.secrets };
    },
    expect: onShared(403, 201, 201),
  },
  {
    route: "PROPPATCH /dav/*",
    request: async (w, as) => {
      const a = await target(w, as);
      return { method: "PROPPATCH", path: inShared(w, as, a.name), body: patchBody, secrets: a.secrets };
    },
    expect: onShared(403, 207, 207),
  },
  {
    route: "LOCK /dav/*",
    request: async (w, as) => {
      const a = await target(w, as);
      return { method: "LOCK", path: inShared(w, as, a.name), body: lockBody, headers: { Depth: "0" }, secrets: a.secrets };
    },
    expect: creating(403, 200, 200),
  },
  {
    route: "UNLOCK /dav/*",
    request: async (w, as) => {
      const a = await freshAsset(w);
      return {
        method: "UNLOCK",
        path: inShared(w, as, a.name),
        headers: { "Lock-Token": "<urn:uuid:00000000-0000-4000-8000-000000000000>" },
      };
    },
    expect: onShared(409, 409, 409),
  },
  { route: "GET /api/auth/app-passwords", request: () => ({ path: "/api/auth/app-passwords" }), expect: signedIn(200) },
  {
    route: "POST /api/auth/app-passwords",
    request: () => ({ method: "POST", path: "/api/auth/app-passwords", json: { name: "диск" } }),
    expect: signedIn(200),
  },
  {
    // The admin's own app password: only its owner may revoke it; to anyone else it does not exist.
    route: "DELETE /api/auth/app-passwords/:id",
    request: async (w) => {
      const made = await call("/api/auth/app-passwords", { method: "POST", json: { name: "чужой" }, bearer: w.adminBearer });
      return { method: "DELETE", path: `/api/auth/app-passwords/${made.body.id}` };
    },
    expect: { ...signedIn(404), admin: 200 },
  },
  {
    route: "GET /api/auth/dav-path/:id",
    request: (w) => ({ path: `/api/auth/dav-path/${w.shared.id}` }),
    expect: onShared(200, 200, 200),
  },
];
