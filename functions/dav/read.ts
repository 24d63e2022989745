import type { DavLock } from "../../db/schema";
import { requireAccess } from "../lib/access";
import { streamVariant } from "../assets/http-content";
import { variantBytesById } from "../assets/versions";
import { anyLiveLock, covers, locksOn, scopesOf } from "./locks";
import { applyPatch, deadProps, entityIdOf, etagOf, liveNames, liveValue, patchInstructions, propTag } from "./props";
import { childrenOf, hrefOf, type AssetNode, type DavNode, type GroupNode } from "./tree";
import { DAV, escapeXml, type XmlElement } from "./xml";
import {
  DavAnswer,
  davError,
  notFound,
  requireIf,
  requirePropCount,
  requireUnlocked,
  statusLine,
  xmlBody,
  xmlResponse,
  type DavRequest,
} from "./common";

/** PROPFIND, GET/HEAD and PROPPATCH. */

type Wanted = { kind: "allprop"; include: XmlElement[] } | { kind: "propname" } | { kind: "prop"; props: XmlElement[] };

function wantedOf(body: XmlElement | null): Wanted {
  if (!body) return { kind: "allprop", include: [] };
  if (body.ns !== DAV || body.name !== "propfind") throw new DavAnswer(400);
  const first = body.children[0];
  if (!first) throw new DavAnswer(400);
  if (first.ns === DAV && first.name === "propname") return { kind: "propname" };
  if (first.ns === DAV && first.name === "allprop") {
    const include = body.children.find((c) => c.name === "include")?.children ?? [];
    requirePropCount(include.length);
    return { kind: "allprop", include };
  }
  if (first.ns === DAV && first.name === "prop") {
    requirePropCount(first.children.length);
    return { kind: "prop", props: first.children };
  }
  throw new DavAnswer(400);
}

export async function propfind(r: DavRequest, node: DavNode | null) {
  const depth = r.req.headers.get("Depth") ?? "infinity";
  if (depth !== "0" && depth !== "1") throw davError(403, "<D:propfind-finite-depth/>");
  const wanted = wantedOf(await xmlBody(r.req));
  if (!node) throw notFound();
  const items: { node: DavNode; segs: string[]; chain: (GroupNode | AssetNode)[] }[] = [{ node, segs: r.segs, chain: r.chain }];
  if (depth === "1" && node.kind !== "asset")
    for (const c of await childrenOf(r.db, r.auth, node)) items.push({ node: c, segs: [...r.segs, c.name], chain: [...r.chain, c] });
  const [dead, lockFor] = await Promise.all([
    deadProps(
      r.db,
      items.map((i) => entityIdOf(i.node)),
    ),
    lockDiscovery(r, items),
  ]);
  const parts = items.map(({ node: n, segs, chain }, i) => {
    const own = dead.get(entityIdOf(n)) ?? [];
    const ok: string[] = [];
    const missing: string[] = [];
    // A lock's root as this caller reaches it: the object on this path it sits on, else the resource itself
    // (the locked group may lie above the caller's roots, or on another of an asset's placements).
    const rootHref = (l: DavLock) => {
      const at = chain.findIndex((c) => entityIdOf(c) === l.entityId);
      return at < 0 || at === chain.length - 1 ? hrefOf(segs, n.kind !== "asset") : hrefOf(segs.slice(0, at + 1), true);
    };
    const live = (name: string) => liveValue(n, name, lockFor[i], rootHref, r.auth);
    if (wanted.kind === "propname") {
      for (const name of liveNames) if (live(name) !== undefined) ok.push(`<D:${name}/>`);
      for (const d of own) ok.push(propTag(d.ns, d.name));
    } else if (wanted.kind === "allprop") {
      for (const name of liveNames) {
        const v = live(name);
        if (v !== undefined) ok.push(propTag(DAV, name, v));
      }
      for (const d of own) ok.push(d.xml);
    } else {
      for (const p of wanted.props) {
        const v = p.ns === DAV ? live(p.name) : undefined;
        const d = own.find((x) => x.ns === p.ns && x.name === p.name);
        if (v !== undefined) ok.push(propTag(DAV, p.name, v));
        else if (d) ok.push(d.xml);
        else missing.push(propTag(p.ns, p.name));
      }
    }
    const stat = (props: string[], code: number) =>
      props.length ? `<D:propstat><D:prop>${props.join("")}</D:prop><D:status>${statusLine(code)}</D:status></D:propstat>` : "";
    return `<D:response><D:href>${escapeXml(hrefOf(segs, n.kind !== "asset"))}</D:href>${stat(ok, 200)}${stat(missing, 404)}</D:response>`;
  });
  return xmlResponse(207, `<D:multistatus xmlns:D="DAV:">${parts.join("")}</D:multistatus>`);
}

/** The live locks covering each item (none read at all when no lock is live anywhere, as is usual). */
async function lockDiscovery(r: DavRequest, items: { node: DavNode }[]): Promise<DavLock[][]> {
  if (!(await anyLiveLock(r.db))) return items.map(() => []);
  const scopes = await scopesOf(
    r.db,
    items.map((i) => i.node),
  );
  const locks = await locksOn(
    r.db,
    scopes.flatMap((s) => [...s.ups, ...(s.self ? [s.self] : [])]),
  );
  return scopes.map((s) => locks.filter((l) => covers(l, s)));
}

export async function getOrHead(r: DavRequest, node: DavNode | null) {
  if (!node) throw notFound();
  if (node.kind !== "asset") {
    const names = (await childrenOf(r.db, r.auth, node)).map((c) => `<li>${escapeXml(c.name)}${c.kind === "group" ? "/" : ""}</li>`);
    return new Response(r.req.method === "HEAD" ? null : `<!doctype html><meta charset="utf-8"><ul>${names.join("")}</ul>`, {
      headers: { "Content-Type": "text/html; charset=utf-8" },
    });
  }
  const etag = etagOf(node)!;
  const lastModified = new Date(node.asset.mtime * 1000).toUTCString();
  if (!node.asset.var)
    return new Response(null, { status: 200, headers: { ETag: etag, "Content-Length": "0", "Last-Modified": lastModified } });
  const v = await variantBytesById(r.db, r.auth, node.asset.var);
  const res = await streamVariant(r.db, r.env, r.req, { ...v, etag: etag.slice(1, -1) }, "attachment");
  res.headers.set("Last-Modified", lastModified);
  return res;
}

export async function proppatch(r: DavRequest, node: DavNode | null) {
  if (!node) throw notFound();
  if (node.kind === "root") throw new DavAnswer(403);
  await requireAccess(r.db, r.auth, "update", [entityIdOf(node)]);
  await requireIf(r);
  await requireUnlocked(r, r);
  const body = await xmlBody(r.req);
  if (!body || body.ns !== DAV || body.name !== "propertyupdate") throw new DavAnswer(400);
  const ops = patchInstructions(body);
  requirePropCount(ops.length);
  // Live properties are computed, never stored: the whole PROPPATCH fails (RFC 4918 section 9.2).
  const refused = ops.filter((o) => o.prop.ns === DAV);
  if (refused.length === 0) await applyPatch(r.db, entityIdOf(node), ops);
  const stat = (props: string[], code: number) =>
    props.length ? `<D:propstat><D:prop>${props.join("")}</D:prop><D:status>${statusLine(code)}</D:status></D:propstat>` : "";
  const tag = (o: (typeof ops)[number]) => propTag(o.prop.ns, o.prop.name);
  const stats = refused.length
    ? stat(refused.map(tag), 403) + stat(ops.filter((o) => o.prop.ns !== DAV).map(tag), 424)
    : stat(ops.map(tag), 200);
  return xmlResponse(
    207,
    `<D:multistatus xmlns:D="DAV:"><D:response><D:href>${escapeXml(hrefOf(r.segs, node.kind !== "asset"))}</D:href>${stats}</D:response></D:multistatus>`,
  );
}
