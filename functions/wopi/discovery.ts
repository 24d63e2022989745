import { configOf } from "../lib/config";
import type { Env } from "../lib/env";
import type { ProofKeys } from "./proof";

/**
 * The office client's discovery (GET {WOPI_CLIENT_URL}/hosting/discovery): which file extensions it opens
 * for which action, at which urlsrc, and its proof keys. Read once per isolate and kept an hour (a failed
 * read a minute, so a client started after the Worker is found soon).
 */

export interface Discovery {
  /** extension (lower case, no dot) → action name (edit, view, …) → urlsrc with its placeholders removed. */
  actions: Map<string, Map<string, string>>;
  proofKeys: ProofKeys | null;
}

const okTtlMs = 3600_000;
const failTtlMs = 60_000;
const cache = new Map<string, { at: number; ttl: number; value: Promise<Discovery | null> }>();

const unescapeXml = (s: string) =>
  s.replace(/&(lt|gt|quot|apos|amp|#\d+|#x[0-9a-f]+);/gi, (_, e: string) => {
    const named: Record<string, string> = { lt: "<", gt: ">", quot: '"', apos: "'", amp: "&" };
    if (named[e.toLowerCase()]) return named[e.toLowerCase()];
    return String.fromCodePoint(e[1].toLowerCase() === "x" ? Number.parseInt(e.slice(2), 16) : Number(e.slice(1)));
  });

function attributes(tag: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of tag.matchAll(/([\w:-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) out[m[1]] = unescapeXml(m[2] ?? m[3] ?? "");
  return out;
}

/**
 * A urlsrc without its optional placeholders ("<ui=UI_LLCC&>", "<rs=DC_LLCC&>", …): the host fills none of them,
 * and the client falls back to its defaults.
 */
export const stripPlaceholders = (urlsrc: string) => urlsrc.replace(/<[^>]*>/g, "");

/** Parses discovery XML (the elements WOPI defines; anything else is ignored). */
export function parseDiscovery(xml: string): Discovery {
  const actions = new Map<string, Map<string, string>>();
  for (const m of xml.matchAll(/<action\b([^>]*?)\/?>/g)) {
    const a = attributes(m[1]);
    if (!a.name || !a.ext || !a.urlsrc) continue;
    const ext = a.ext.toLowerCase();
    const byAction = actions.get(ext) ?? new Map<string, string>();
    if (!byAction.has(a.name)) byAction.set(a.name, stripPlaceholders(a.urlsrc));
    actions.set(ext, byAction);
  }
  const pk = /<proof-key\b([^>]*?)\/?>/.exec(xml);
  let proofKeys: ProofKeys | null = null;
  if (pk) {
    const a = attributes(pk[1]);
    if (a.modulus && a.exponent)
      proofKeys = {
        current: { modulus: a.modulus, exponent: a.exponent },
        old: a.oldmodulus && a.oldexponent ? { modulus: a.oldmodulus, exponent: a.oldexponent } : undefined,
      };
  }
  return { actions, proofKeys };
}

async function load(env: Pick<Env, "WOPI_CLIENT_URL" | "WOPI_FETCH">, base: string): Promise<Discovery | null> {
  const url = `${base.replace(/\/+$/, "")}/hosting/discovery`;
  try {
    const res = env.WOPI_FETCH ? await env.WOPI_FETCH.fetch(url) : await fetch(url);
    if (!res.ok) {
      console.error(`wopi discovery ${url}: HTTP ${res.status}`);
      return null;
    }
    return parseDiscovery(await res.text());
  } catch (err) {
    console.error(`wopi discovery ${url}:`, err);
    return null;
  }
}

/** The configured client's discovery; null when none is configured or it cannot be read. */
export async function discovery(env: Pick<Env, "WOPI_CLIENT_URL" | "WOPI_FETCH">, now = Date.now()): Promise<Discovery | null> {
  const base = configOf(env).WOPI_CLIENT_URL;
  if (!base) return null;
  const hit = cache.get(base);
  if (hit && now - hit.at < hit.ttl) return hit.value;
  const entry = { at: now, ttl: okTtlMs, value: load(env, base) };
  cache.set(base, entry);
  entry.value.then((d) => {
    if (!d) entry.ttl = failTtlMs;
  });
  return entry.value;
}

export const extensionOf = (name: string) => {
  const dot = name.lastIndexOf(".");
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : "";
};

/** The client's address for a file: its edit action when the user may write and it offers one, else view; null when it opens no such file. */
export function clientUrl(d: Discovery, fileName: string, write: boolean, wopiSrc: string): string | null {
  const byAction = d.actions.get(extensionOf(fileName));
  if (!byAction) return null;
  const urlsrc = (write ? byAction.get("edit") : undefined) ?? byAction.get("view") ?? byAction.get("edit");
  if (!urlsrc) return null;
  const sep = /[?&]$/.test(urlsrc) ? "" : urlsrc.includes("?") ? "&" : "?";
  return `${urlsrc}${sep}WOPISrc=${encodeURIComponent(wopiSrc)}`;
}
